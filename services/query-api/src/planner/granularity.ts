/** Output bucket sizes of `/stats`, in the query zone's calendar (seed: `granularity`). */
export const GRANULARITIES = ["hour", "day", "week", "month"] as const;
export type Granularity = (typeof GRANULARITIES)[number];

/** Used when `granularity` is not given (seed rule 3: `meta.granularity` then reports `day`). */
export const DEFAULT_GRANULARITY: Granularity = "day";
