/** Output bucket sizes of `/stats`, in the query zone's calendar (seed: `granularity`). */
export const GRANULARITIES = ["hour", "day", "week", "month"] as const;
export type Granularity = (typeof GRANULARITIES)[number];

/** Used when `granularity` is not given (seed rule 3: `meta.granularity` then reports `day`). */
export const DEFAULT_GRANULARITY: Granularity = "day";

/** docs/contract.md §7 `granularity=all`: one bucket, the whole range (leaderboards). */
export const WHOLE_RANGE = "all";
/** What `/stats` accepts: the calendar units, or the whole range. */
export const STATS_GRANULARITIES = [...GRANULARITIES, WHOLE_RANGE] as const;
export type StatsGranularity = (typeof STATS_GRANULARITIES)[number];
