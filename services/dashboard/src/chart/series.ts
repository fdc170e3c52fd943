import type { Dimension } from "@vu/events/vocabulary";
import type { StatsRow } from "../api/types";
import { CHART_METRIC_LABELS, type ChartMetric } from "../state/vocabulary";
import { SERIES_COLOURS } from "./palette";

/** A group: its value in each grouped dimension, in the order grouped (null: no language model). */
export type GroupValues = readonly (string | null)[];

/** A series' key: its group (empty when ungrouped), or all the groups past the top. */
export type SeriesKey = GroupValues | typeof OTHER;
export const OTHER: unique symbol = Symbol("other");

export interface ChartSeries {
  key: SeriesKey;
  label: string;
  /** One value per bucket of `ChartData.x`, in the metric's unit. */
  values: number[];
  total: number;
}

export interface ChartData {
  /** Bucket starts, Unix time in seconds (uPlot's time unit), ascending. */
  x: number[];
  series: ChartSeries[];
  /** How many groups "Other" sums (0 when there is no "Other"). */
  otherGroups: number;
  /** Per bucket of `x`: whether the API said it may still grow (a row with `complete: false`). */
  stillCounting: boolean[];
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

/** A group's label: each dimension's value in words, joined in the order grouped. */
export const groupsLabel = (groupBy: readonly Dimension[], values: GroupValues): string =>
  groupBy.map((dimension, i) => groupLabel(dimension, values[i] ?? null)).join(" · ");

/** A row's group: its value in each grouped dimension. */
export const rowGroup = (row: StatsRow, groupBy: readonly Dimension[]): GroupValues =>
  groupBy.map((dimension) => row[dimension] ?? null);

export interface BuildSeriesOptions {
  /** The API's rows; with `fill=zero` every bucket of the range has rows, zeros included. */
  rows: readonly StatsRow[];
  groupBy: readonly Dimension[];
  metric: ChartMetric;
  topGroups?: number;
}

/** Orders values as the API orders groups: byte order, null last. */
function compareValues(a: GroupValues, b: GroupValues): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const x = a[i] ?? null;
    const y = b[i] ?? null;
    if (x === y) continue;
    if (x === null) return 1;
    if (y === null) return -1;
    return x < y ? -1 : 1;
  }
  return 0;
}

interface GroupSums {
  values: GroupValues;
  /** Per bucket, in the API's integer units. */
  sums: number[];
  total: number;
}

/** Sums per group and bucket; `x` are the buckets' starts in ms, ascending. */
function sumByGroup(rows: readonly StatsRow[], groupBy: readonly Dimension[], metric: ChartMetric) {
  const field = METRIC_FIELD[metric];
  const xMs = [...new Set(rows.map((row) => Date.parse(row.time_bucket)))].sort((a, b) => a - b);
  const index = new Map(xMs.map((ms, i) => [ms, i]));
  const groups = new Map<string, GroupSums>();
  for (const row of rows) {
    const values = rowGroup(row, groupBy);
    const id = JSON.stringify(values);
    let group = groups.get(id);
    if (!group) {
      group = { values, sums: new Array<number>(xMs.length).fill(0), total: 0 };
      groups.set(id, group);
    }
    const i = index.get(Date.parse(row.time_bucket)) ?? 0;
    group.sums[i] = (group.sums[i] ?? 0) + row[field];
    group.total += row[field];
  }
  return { xMs, groups: [...groups.values()] };
}

/**
 * The chart's series from the API's rows: one series when ungrouped; when grouped (by one
 * dimension or a combination), one per group for the biggest groups over the whole range (by the
 * plotted metric; ties in the API's order) and "Other" for the rest.
 */
export function buildSeries({
  rows,
  groupBy,
  metric,
  topGroups = TOP_GROUPS,
}: BuildSeriesOptions): ChartData {
  const { xMs, groups } = sumByGroup(rows, groupBy, metric);
  const x = xMs.map((ms) => ms / 1000);
  const open = new Set(
    rows.filter((row) => row.complete === false).map((row) => Date.parse(row.time_bucket)),
  );
  const stillCounting = xMs.map((ms) => open.has(ms));
  const finish = (key: SeriesKey, label: string, raw: readonly number[], total: number): ChartSeries => ({
    key,
    label,
    values: raw.map((v) => toMetricUnit(metric, v)),
    total: toMetricUnit(metric, total),
  });

  if (groupBy.length === 0) {
    const only = groups[0] ?? { values: [], sums: new Array<number>(xMs.length).fill(0), total: 0 };
    const series = [finish([], CHART_METRIC_LABELS[metric], only.sums, only.total)];
    return { x, series, otherGroups: 0, stillCounting };
  }
  const ranked = groups.sort((a, b) => b.total - a.total || compareValues(a.values, b.values));
  const shown = ranked.slice(0, topGroups);
  const rest = ranked.slice(shown.length);
  const series = shown.map((g) => finish(g.values, groupsLabel(groupBy, g.values), g.sums, g.total));
  if (rest.length > 0) {
    const other = new Array<number>(xMs.length).fill(0);
    for (const group of rest) {
      group.sums.forEach((v, i) => {
        other[i] = (other[i] ?? 0) + v;
      });
    }
    const total = rest.reduce((n, g) => n + g.total, 0);
    const label = `Other (${rest.length} ${rest.length === 1 ? "group" : "groups"})`;
    series.push(finish(OTHER, label, other, total));
  }
  return { x, series, otherGroups: rest.length, stillCounting };
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
