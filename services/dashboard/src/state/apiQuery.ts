import { DIMENSIONS } from "@vu/events/vocabulary";
import { apiInstant, customRange, presetRange, type ZonedRange } from "./presets";
import type { ViewState } from "./viewState";
import { filterParam } from "./vocabulary";

/**
 * The view's range at `nowMs`. A custom range that cannot be read falls back to the last 30 days
 * (viewStateFromUrl only lets valid dates in, so this is a guard, not a path users take).
 */
export function viewRange(view: ViewState, nowMs: number): ZonedRange {
  if (view.range === "custom" && view.from !== null && view.to !== null) {
    const range = customRange(view.from, view.to, view.timezone);
    if (range) return range;
  }
  return presetRange(view.range === "custom" ? "last_30_days" : view.range, nowMs, view.timezone);
}

/**
 * The parameters `/stats/summary` takes (seed: range and filters) plus the zone. The range is
 * resolved once per view and passed to every request, so cards, chart and table count the same
 * instants.
 */
export function summaryQuery(view: ViewState, range: ZonedRange): URLSearchParams {
  const params = new URLSearchParams();
  params.set("start_date", apiInstant(range.start));
  params.set("end_date", apiInstant(range.end));
  params.set("timezone", view.timezone);
  for (const dimension of DIMENSIONS) {
    const values = view.filters[dimension];
    if (values.length > 0) params.set(filterParam(dimension), values.join(","));
  }
  return params;
}

export interface StatsPaging {
  page: number;
  pageSize: number;
  format?: "json" | "csv";
}

/** The parameters of `/stats`: the summary's plus granularity, group_by, paging and format. */
export function statsQuery(view: ViewState, range: ZonedRange, paging: StatsPaging): URLSearchParams {
  const params = summaryQuery(view, range);
  params.set("granularity", view.granularity);
  if (view.groupBy !== null) params.set("group_by", view.groupBy);
  params.set("page", String(paging.page));
  params.set("page_size", String(paging.pageSize));
  if (paging.format === "csv") params.set("format", "csv");
  return params;
}
