import { DIMENSIONS, type Dimension } from "@vu/events/vocabulary";
import type { StatsQuery, SummaryQuery } from "../api/types";
import { apiInstant, customRange, presetRange, type ZonedRange } from "./presets";
import type { ScreenState } from "./screenState";
import { excludeParam, filterParam, PROCESSING_PERCENTILE, TOP_N } from "./vocabulary";

/**
 * The view's range at `nowMs`. A custom range that cannot be read falls back to the last 30 days
 * (screenStateFromUrl only lets valid dates in, so this is a guard, not a path users take).
 */
export function viewRange(view: ScreenState, nowMs: number): ZonedRange {
  if (view.range === "custom" && view.from !== null && view.to !== null) {
    const range = customRange(view.from, view.to, view.timezone);
    if (range) return range;
  }
  return presetRange(view.range === "custom" ? "last_30_days" : view.range, nowMs, view.timezone);
}

/**
 * The parameters `/stats/summary` takes: the range, the zone, the filters and the exclusions. The
 * range is resolved once per view and passed to every request, so cards, chart and tables count the
 * same instants.
 */
export function summaryQuery(view: ScreenState, range: ZonedRange): SummaryQuery {
  const query: SummaryQuery = {
    start_date: apiInstant(range.start),
    end_date: apiInstant(range.end),
    timezone: view.timezone,
  };
  for (const dimension of DIMENSIONS) {
    const kept = view.filters[dimension];
    if (kept.length > 0) query[filterParam(dimension)] = kept.join(",");
  }
  for (const dimension of DIMENSIONS) {
    const left = view.exclude[dimension];
    if (left.length > 0) query[excludeParam(dimension)] = left.join(",");
  }
  return query;
}

/**
 * docs/contract.md §9: the cards, the table (and its CSV) and the top tables show how many distinct
 * members recorded; the chart plots sums only, and does not ask.
 */
const COUNT_MEMBERS = { include: "active_members" } as const;

/**
 * docs/contract.md §9 `percentiles`: the processing times' percentile beside their averages, when
 * `withPercentile` (false once the API said this organization keeps no percentile sketches).
 */
const percentileParam = (withPercentile: boolean) =>
  withPercentile ? { percentiles: String(PROCESSING_PERCENTILE) } : {};

/**
 * The cards' `/stats/summary`: the view's totals and active members and, beside them, the previous
 * period's and the change; with `withPercentile`, the processing times' percentile (not compared).
 */
export function cardsQuery(view: ScreenState, range: ZonedRange, withPercentile = false): SummaryQuery {
  return {
    ...summaryQuery(view, range),
    compare: view.compare,
    ...COUNT_MEMBERS,
    ...percentileParam(withPercentile),
  };
}

export interface StatsPaging {
  page: number;
  pageSize: number;
  format?: "json" | "csv";
}

/**
 * The view's time series: the summary's parameters plus granularity, the week's first day (named
 * even when it is Monday, so that every row says whether it is complete), group_by and paging.
 */
function seriesQuery(view: ScreenState, range: ZonedRange, paging: StatsPaging): StatsQuery {
  return {
    ...summaryQuery(view, range),
    granularity: view.granularity,
    week_start: view.weekStart,
    ...(view.groupBy.length > 0 ? { group_by: view.groupBy.join(",") } : {}),
    page: paging.page,
    page_size: paging.pageSize,
    ...(paging.format === "csv" ? { format: "csv" as const } : {}),
  };
}

/** The parameters of `/stats` for the table and the CSV: the series, each row's active members too. */
export function statsQuery(view: ScreenState, range: ZonedRange, paging: StatsPaging): StatsQuery {
  return { ...seriesQuery(view, range, paging), ...COUNT_MEMBERS };
}

/**
 * The chart's `/stats`: the table's series with every bucket of the range (`fill=zero`), so an
 * empty bucket is a zero the API answered, not one the page made up.
 */
export function chartQuery(
  view: ScreenState,
  range: ZonedRange,
  paging: StatsPaging,
  withPercentile = false,
): StatsQuery {
  return { ...seriesQuery(view, range, paging), fill: "zero", ...percentileParam(withPercentile) };
}

/**
 * The processing-time view's `/stats`: the chart's, ungrouped (a percentile of the whole view
 * cannot be made from its groups' percentiles), with the percentile. An ungrouped view's chart
 * asks exactly this, so it needs no request of its own.
 */
export function processingQuery(
  view: ScreenState,
  range: ZonedRange,
  paging: StatsPaging,
  withPercentile: boolean,
): StatsQuery {
  return chartQuery({ ...view, groupBy: [] }, range, paging, withPercentile);
}

/**
 * A "top 10" table: one bucket for the whole range (`granularity=all`), the dimension's groups by
 * minutes, the first TOP_N and one exact "(other)" row for the rest (`limit`, `other=true`), whose
 * active members are the rest's, each once.
 */
export function topQuery(view: ScreenState, range: ZonedRange, dimension: Dimension): StatsQuery {
  return {
    ...summaryQuery(view, range),
    granularity: "all",
    group_by: dimension,
    sort: "-total_duration",
    limit: TOP_N,
    other: "true",
    page_size: TOP_N + 1,
    ...COUNT_MEMBERS,
  };
}
