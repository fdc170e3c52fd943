import { DateTime, type Zone } from "luxon";
import type { Granularity, WeekStart } from "./params";
import { ExpectedBadRequest, type OracleRange } from "./range";

/** docs/contract.md §3: a range needing more buckets than this is a 400. */
export const MAX_BUCKETS = 10_000;
const HOUR_MS = 3_600_000;

/** How buckets are cut: a unit of the calendar, and the day a week starts on (docs/contract.md §9). */
export interface Calendar {
  granularity: Granularity;
  weekStart: WeekStart;
}

/**
 * The local start of the bucket holding `dt`, from luxon: its own units (ISO weeks start on
 * Monday); a week starting on Sunday is the local day less its weekday (Monday 1 … Sunday 7) mod 7.
 */
function startOf(dt: DateTime, { granularity, weekStart }: Calendar): DateTime {
  if (granularity !== "week" || weekStart === "monday") return dt.startOf(granularity);
  const day = dt.startOf("day");
  return day.minus({ days: day.weekday % 7 }).startOf("day");
}

/** The full local start of the bucket containing `ms`. */
export function bucketStartOf(ms: number, calendar: Calendar, zone: Zone): number {
  return startOf(DateTime.fromMillis(ms, { zone }), calendar).toMillis();
}

/**
 * The starts of the local buckets that meet the range, in order (the first may lie before the
 * range start). Hours step by 60 elapsed minutes, so the repeated autumn hour is two buckets and
 * the skipped spring hour none (every zone used has offsets in whole half hours that change on the
 * hour); days, weeks, months, quarters and years step by the calendar, so a local day lasts 23 to
 * 25 hours.
 */
export function bucketStarts(range: OracleRange, calendar: Calendar): number[] {
  const starts: number[] = [];
  if (range.endMs <= range.startMs) return starts;
  let start = startOf(DateTime.fromMillis(range.startMs, { zone: range.zone }), calendar);
  while (start.toMillis() < range.endMs) {
    if (starts.length === MAX_BUCKETS) throw new ExpectedBadRequest("granularity");
    starts.push(start.toMillis());
    start =
      calendar.granularity === "hour"
        ? DateTime.fromMillis(start.toMillis() + HOUR_MS, { zone: range.zone })
        : startOf(start.plus({ [`${calendar.granularity}s`]: 1 }), calendar);
  }
  return starts;
}

/** Index of the last start ≤ t (binary search; `starts` sorted, starts[0] ≤ t). */
export function bucketIndex(starts: readonly number[], t: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if ((starts[mid] ?? Number.POSITIVE_INFINITY) <= t) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Index of the first recording at or after `t` in a list sorted by time. */
export function firstAtOrAfter(times: readonly { atMs: number }[], t: number): number {
  let lo = 0;
  let hi = times.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((times[mid]?.atMs ?? Number.POSITIVE_INFINITY) < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
