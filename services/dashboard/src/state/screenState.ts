import { DIMENSIONS, type Dimension } from "@vu/events/vocabulary";
import { DateTime } from "luxon";
import { isKnownZone } from "./presets";
import {
  CHART_METRICS,
  type ChartMetric,
  COMPARISONS,
  type Comparison,
  excludeParam,
  filterParam,
  GRANULARITIES,
  type Granularity,
  includes,
  MAX_GROUP_BY,
  PAGE_SIZES,
  RANGE_PRESETS,
  type RangeChoice,
  WEEK_STARTS,
  type WeekStart,
} from "./vocabulary";

/** Everything a view shows, except the token: what a bookmark or a shared link must restore. */
export interface ScreenState {
  range: RangeChoice;
  /** Custom range only: first and last local day, `yyyy-MM-dd`, both included. */
  from: string | null;
  to: string | null;
  timezone: string;
  granularity: Granularity;
  /** The day weeks start on, at local midnight. */
  weekStart: WeekStart;
  /** Up to MAX_GROUP_BY distinct dimensions, in the order asked; empty: no grouping. */
  groupBy: readonly Dimension[];
  /** Selected values per dimension; an empty list is no filter. */
  filters: Readonly<Record<Dimension, readonly string[]>>;
  /**
   * Values left out per dimension (`exclude[...]`). A dimension either keeps or leaves out its
   * selection, so a dimension with a filter has no exclusions.
   */
  exclude: Readonly<Record<Dimension, readonly string[]>>;
  metric: ChartMetric;
  /** What the cards compare the range with. */
  compare: Comparison;
  /** The table's page (the API's pagination). */
  page: number;
  pageSize: number;
}

const DEFAULTS = {
  range: "last_30_days",
  granularity: "day",
  weekStart: "monday",
  metric: "recordings",
  compare: "previous_period",
  page: 1,
  pageSize: 50,
} as const satisfies Partial<ScreenState>;

const noFilters = (): Record<Dimension, string[]> =>
  Object.fromEntries(DIMENSIONS.map((d): [Dimension, string[]] => [d, []])) as Record<Dimension, string[]>;

export function defaultScreenState(timezone: string): ScreenState {
  return {
    ...DEFAULTS,
    from: null,
    to: null,
    timezone,
    groupBy: [],
    filters: noFilters(),
    exclude: noFilters(),
  };
}

const isLocalDate = (value: string | null): value is string =>
  value !== null && /^\d{4}-\d{2}-\d{2}$/.test(value) && DateTime.fromISO(value).isValid;

/** A list as the API writes it: comma-separated, items trimmed, empty items and repeats dropped. */
export function splitList(value: string | null): string[] {
  if (value === null) return [];
  return [...new Set(value.split(",").map((item) => item.trim()))].filter((item) => item !== "");
}

/** `group_by` as the view takes it: known dimensions, no repeats, at most MAX_GROUP_BY; else none. */
export function parseGroupBy(value: string | null): Dimension[] {
  const names = splitList(value);
  const valid = names.every((name) => includes(DIMENSIONS, name)) && names.length <= MAX_GROUP_BY;
  return valid ? (names as Dimension[]) : [];
}

function positiveInt(value: string | null, fallback: number, allowed?: readonly number[]): number {
  if (value === null || !/^\d{1,6}$/.test(value)) return fallback;
  const n = Number(value);
  if (n < 1 || (allowed && !allowed.includes(n))) return fallback;
  return n;
}

/**
 * Reads a view from the page's query string. Anything missing or not understood (a link edited by
 * hand, an unknown zone) falls back to the default, so every URL opens some view.
 */
export function screenStateFromUrl(search: string | URLSearchParams, defaultZone: string): ScreenState {
  const params = typeof search === "string" ? new URLSearchParams(search) : search;
  const view = defaultScreenState(defaultZone);
  const zone = params.get("timezone");
  if (zone !== null && isKnownZone(zone)) view.timezone = zone;

  const range = params.get("range");
  const from = params.get("from");
  const to = params.get("to");
  if (range === "custom" && isLocalDate(from) && isLocalDate(to)) {
    Object.assign(view, { range, from, to });
  } else if (includes(RANGE_PRESETS, range)) {
    view.range = range;
  }

  const granularity = params.get("granularity");
  if (includes(GRANULARITIES, granularity)) view.granularity = granularity;
  const weekStart = params.get("week_start");
  if (includes(WEEK_STARTS, weekStart)) view.weekStart = weekStart;
  view.groupBy = parseGroupBy(params.get("group_by"));
  const metric = params.get("metric");
  if (includes(CHART_METRICS, metric)) view.metric = metric;
  const compare = params.get("compare");
  if (includes(COMPARISONS, compare)) view.compare = compare;
  const filters = noFilters();
  const exclude = noFilters();
  for (const dimension of DIMENSIONS) {
    filters[dimension] = splitList(params.get(filterParam(dimension)));
    // One list per dimension: a filter already names what is kept.
    if (filters[dimension].length === 0) exclude[dimension] = splitList(params.get(excludeParam(dimension)));
  }
  view.filters = filters;
  view.exclude = exclude;
  view.page = positiveInt(params.get("page"), DEFAULTS.page);
  view.pageSize = positiveInt(params.get("page_size"), DEFAULTS.pageSize, PAGE_SIZES);
  return view;
}

/**
 * Writes a view as a query string, in a fixed order. The range and the zone are always written (a
 * link opened in another zone shows the same numbers); other settings only when not the default.
 */
export function screenStateToUrl(view: ScreenState): URLSearchParams {
  const params = new URLSearchParams();
  params.set("range", view.range);
  if (view.range === "custom") {
    params.set("from", view.from ?? "");
    params.set("to", view.to ?? "");
  }
  params.set("timezone", view.timezone);
  if (view.granularity !== DEFAULTS.granularity) params.set("granularity", view.granularity);
  if (view.weekStart !== DEFAULTS.weekStart) params.set("week_start", view.weekStart);
  if (view.groupBy.length > 0) params.set("group_by", view.groupBy.join(","));
  for (const dimension of DIMENSIONS) {
    const values = view.filters[dimension];
    if (values.length > 0) params.set(filterParam(dimension), values.join(","));
  }
  for (const dimension of DIMENSIONS) {
    const values = view.exclude[dimension];
    if (values.length > 0) params.set(excludeParam(dimension), values.join(","));
  }
  if (view.metric !== DEFAULTS.metric) params.set("metric", view.metric);
  if (view.compare !== DEFAULTS.compare) params.set("compare", view.compare);
  if (view.page !== DEFAULTS.page) params.set("page", String(view.page));
  if (view.pageSize !== DEFAULTS.pageSize) params.set("page_size", String(view.pageSize));
  return params;
}

/** The same view with some settings changed; anything but paging sends the table to page 1. */
export function updateView(view: ScreenState, change: Partial<ScreenState>): ScreenState {
  const pagingOnly = Object.keys(change).every((key) => key === "page");
  return { ...view, ...(pagingOnly ? {} : { page: 1 }), ...change };
}
