import type { Dimension } from "@vu/events/vocabulary";
import type { DateTime, DateTimeUnit } from "luxon";
import type { StatsRow } from "../api/types";
import { CHART_METRIC_LABELS, type ChartMetric, type Granularity } from "../state/vocabulary";
import { SERIES_COLOURS } from "./palette";

/** A group's key in a series: its value, null for "no language model", or all the groups past the top. */
export type SeriesKey = string | null | typeof OTHER;
export const OTHER: unique symbol = Symbol("other");

export interface ChartSeries {
  key: SeriesKey;
  label: string;
  /** One value per bucket of `ChartData.x`, in the metric's unit. */
  values: number[];
  total: number;
}

export interface ChartData {
  /** Bucket starts, epoch seconds (uPlot's time unit), ascending. */
  x: number[];
  series: ChartSeries[];
  /** How many groups "Other" sums (0 when there is no "Other"). */
  otherGroups: number;
}

/** The most series drawn in their own colour; more groups than this are summed as "Other". */
export const TOP_GROUPS = SERIES_COLOURS.length;

/** The row field a metric sums, in the API's units; minutes are derived at the end from exact ms. */
const METRIC_FIELD = {
  recordings: "recording_count",
  minutes: "total_duration",
  words: "total_words",
} as const satisfies Record<ChartMetric, keyof StatsRow>;
const toMetricUnit = (metric: ChartMetric, sum: number): number =>
  metric === "minutes" ? sum / 60_000 : sum;

export const groupLabel = (dimension: Dimension, value: string | null): string =>
  value === null ? (dimension === "language_model" ? "(no language model)" : "(none)") : value;

const LUXON_UNIT: Readonly<Record<Granularity, DateTimeUnit>> = {
  hour: "hour",
  day: "day",
  week: "week", // ISO weeks, Monday first, as the API's
  month: "month",
};

/**
 * Every bucket start of [start, end) in the zone's calendar, epoch ms: the chart shows empty
 * buckets as zero rather than joining the buckets around them (the API lists only buckets with
 * recordings). Capped, as the API caps a query at 10,000 buckets.
 */
export function bucketStarts(start: DateTime, end: DateTime, granularity: Granularity): number[] {
  const unit = LUXON_UNIT[granularity];
  const starts: number[] = [];
  for (let t = start.startOf(unit); t < end && starts.length <= 10_000; t = t.plus({ [unit]: 1 })) {
    starts.push(t.toMillis());
  }
  return starts;
}

export interface BuildSeriesOptions {
  rows: readonly StatsRow[];
  groupBy: Dimension | null;
  metric: ChartMetric;
  /** Buckets to show even without rows (bucketStarts); rows in other buckets are added too. */
  buckets?: readonly number[];
  topGroups?: number;
}

/** Orders groups biggest first; ties by value in byte order, null last (as the API orders rows). */
function compareGroups(a: [string | null, number], b: [string | null, number]): number {
  if (a[1] !== b[1]) return b[1] - a[1];
  if (a[0] === b[0]) return 0;
  if (a[0] === null) return 1;
  if (b[0] === null) return -1;
  return a[0] < b[0] ? -1 : 1;
}

/**
 * The chart's series from the API's rows: one series when ungrouped; when grouped, one per group
 * for the biggest groups over the whole range (by the plotted metric) and "Other" for the rest.
 */
export function buildSeries({
  rows,
  groupBy,
  metric,
  buckets = [],
  topGroups = TOP_GROUPS,
}: BuildSeriesOptions): ChartData {
  const field = METRIC_FIELD[metric];
  const bucketMs = new Set(buckets);
  for (const row of rows) bucketMs.add(Date.parse(row.time_bucket));
  const xMs = [...bucketMs].sort((a, b) => a - b);
  const index = new Map(xMs.map((ms, i) => [ms, i]));

  // Sums per group and bucket, in the API's integer units.
  const sums = new Map<string | null, number[]>();
  for (const row of rows) {
    const group = groupBy === null ? null : ((row[groupBy] as string | null | undefined) ?? null);
    let values = sums.get(group);
    if (!values) {
      values = new Array<number>(xMs.length).fill(0);
      sums.set(group, values);
    }
    const i = index.get(Date.parse(row.time_bucket)) ?? 0;
    values[i] = (values[i] ?? 0) + row[field];
  }
  const x = xMs.map((ms) => ms / 1000);
  const finish = (key: SeriesKey, label: string, raw: number[]): ChartSeries => {
    const values = raw.map((v) => toMetricUnit(metric, v));
    return {
      key,
      label,
      values,
      total: toMetricUnit(
        metric,
        raw.reduce((a, b) => a + b, 0),
      ),
    };
  };

  if (groupBy === null) {
    const raw = sums.get(null) ?? new Array<number>(xMs.length).fill(0);
    return { x, series: [finish(null, CHART_METRIC_LABELS[metric], raw)], otherGroups: 0 };
  }
  const ranked = [...sums.entries()]
    .map(([group, values]) => [group, values.reduce((a, b) => a + b, 0)] as [string | null, number])
    .sort(compareGroups);
  const shown = ranked.slice(0, topGroups);
  const rest = ranked.slice(shown.length);
  const series = shown.map(([group]) => finish(group, groupLabel(groupBy, group), sums.get(group) ?? []));
  if (rest.length > 0) {
    const other = new Array<number>(xMs.length).fill(0);
    for (const [group] of rest) {
      (sums.get(group) ?? []).forEach((v, i) => {
        other[i] = (other[i] ?? 0) + v;
      });
    }
    series.push(finish(OTHER, `Other (${rest.length} ${rest.length === 1 ? "group" : "groups"})`, other));
  }
  return { x, series, otherGroups: rest.length };
}

/** Cumulative values for drawing a stack: series i is drawn up to the sum of series 0..i. */
export function stackValues(series: readonly (readonly number[])[]): number[][] {
  const stacked: number[][] = [];
  let running: number[] = [];
  for (const values of series) {
    running = values.map((v, i) => v + (running[i] ?? 0));
    stacked.push(running);
  }
  return stacked;
}
