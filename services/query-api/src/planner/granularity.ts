import type { CalendarUnit } from "@vu/time-buckets";

/**
 * Output bucket sizes of `/stats`, in the query zone's calendar (seed: `granularity`; quarters
 * and years: docs/contract.md §9).
 */
export const GRANULARITIES = ["hour", "day", "week", "month", "quarter", "year"] as const;
export type Granularity = (typeof GRANULARITIES)[number];

/** Used when `granularity` is not given (seed rule 3: `meta.granularity` then reports `day`). */
export const DEFAULT_GRANULARITY: Granularity = "day";

/** docs/contract.md §7 `granularity=all`: one bucket, the whole range (leaderboards). */
export const WHOLE_RANGE = "all";
/** What `/stats` accepts: the calendar units, or the whole range. */
export const STATS_GRANULARITIES = [...GRANULARITIES, WHOLE_RANGE] as const;
export type StatsGranularity = (typeof STATS_GRANULARITIES)[number];

/** docs/contract.md §9 `week_start`: the day a week begins on; ISO's Monday by default (§2). */
export const WEEK_STARTS = ["monday", "sunday"] as const;
export type WeekStart = (typeof WEEK_STARTS)[number];
export const DEFAULT_WEEK_START: WeekStart = "monday";

/** The calendar unit a bucket of `granularity` is: a week starts on `weekStart`, every other unit ignores it. */
export function calendarUnitOf(
  granularity: Granularity,
  weekStart: WeekStart = DEFAULT_WEEK_START,
): CalendarUnit {
  return granularity === "week" && weekStart === "sunday" ? "sundayWeek" : granularity;
}
