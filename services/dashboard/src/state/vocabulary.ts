// The API's own words (seed: granularity, group_by, filter[...]) and the dashboard's choices
// derived from them, in one place: URL keys, API parameters and controls all read from here. The
// dimensions themselves are the events' declaration (`@vu/events/vocabulary`, bundled: it imports
// nothing); only their labels are the dashboard's.
import type { Dimension } from "@vu/events/vocabulary";

export const GRANULARITIES = ["hour", "day", "week", "month", "quarter", "year"] as const;
export type Granularity = (typeof GRANULARITIES)[number];

/**
 * The day weeks start on (docs/contract.md §9 `week_start`). Every `/stats` request of the chart
 * and the table names it, the default too, so that each row says whether its bucket is still
 * counting (`complete`).
 */
export const WEEK_STARTS = ["monday", "sunday"] as const;
export type WeekStart = (typeof WEEK_STARTS)[number];

export const DIMENSION_LABELS: Readonly<Record<Dimension, string>> = {
  member_email: "Member",
  voice_model: "Voice model",
  language_model: "Language model",
  app_name: "App",
};

/** The API's query parameter for a dimension's filter. */
export const filterParam = <D extends Dimension>(dimension: D): `filter[${D}]` => `filter[${dimension}]`;

/** The API's query parameter for a dimension's exclusions (docs/contract.md §7: NOT IN, ANDed with the filters). */
export const excludeParam = <D extends Dimension>(dimension: D): `exclude[${D}]` => `exclude[${dimension}]`;

/** How many dimensions the view groups by at once (the API takes up to four; two stay readable). */
export const MAX_GROUP_BY = 2;

/** The "top 10" tables: their dimensions, their length, and the sum they rank by. */
export const TOP_DIMENSIONS = ["member_email", "app_name"] as const satisfies readonly Dimension[];
export const TOP_N = 10;

/**
 * What the cards compare with (docs/contract.md §7 `compare`): the range moved back by its own
 * length, or the same dates one calendar year back (seasonal businesses compare with last year).
 */
export const COMPARISONS = ["previous_period", "previous_year"] as const;
export type Comparison = (typeof COMPARISONS)[number];

export const COMPARISON_LABELS: Readonly<Record<Comparison, string>> = {
  previous_period: "previous period",
  previous_year: "same period last year",
};

/** In `filter[language_model]`, this item selects recordings without a language model (docs/contract.md §2). */
export const NO_LANGUAGE_MODEL = "null";

/** What the chart plots; each is a row field, minutes derived from milliseconds. */
export const CHART_METRICS = ["recordings", "minutes", "words"] as const;
export type ChartMetric = (typeof CHART_METRICS)[number];

export const CHART_METRIC_LABELS: Readonly<Record<ChartMetric, string>> = {
  recordings: "Recordings",
  minutes: "Minutes",
  words: "Words",
};

export const RANGE_PRESETS = [
  "last_24_hours",
  "last_7_days",
  "last_30_days",
  "this_month",
  "last_month",
  "last_quarter",
] as const;
export type RangePreset = (typeof RANGE_PRESETS)[number];
export type RangeChoice = RangePreset | "custom";

export const RANGE_LABELS: Readonly<Record<RangeChoice, string>> = {
  last_24_hours: "Last 24 hours",
  last_7_days: "Last 7 days",
  last_30_days: "Last 30 days",
  this_month: "This month",
  last_month: "Last month",
  last_quarter: "Last quarter",
  custom: "Custom range",
};

/** Table page sizes offered (the API allows 1 to 1000). */
export const PAGE_SIZES = [25, 50, 100, 200] as const;

export const includes = <T extends string>(list: readonly T[], value: string | null): value is T =>
  value !== null && (list as readonly string[]).includes(value);

/**
 * The percentile shown beside the average processing times (docs/contract.md §9 `percentiles`):
 * the cards' `/stats/summary` and the processing-time view's `/stats` ask for it.
 */
export const PROCESSING_PERCENTILE = 95;
export const PERCENTILE_LABEL = `p${PROCESSING_PERCENTILE}`;

/** The processing times, as `/stats` rows name them (milliseconds), each with its percentile's field. */
export const PROCESSING_TIMES = [
  {
    average: "avg_voice_processing_time",
    percentile: `p${PROCESSING_PERCENTILE}_voice_processing_time`,
    label: "voice",
  },
  {
    average: "avg_llm_processing_time",
    percentile: `p${PROCESSING_PERCENTILE}_llm_processing_time`,
    label: "language model",
  },
] as const;
