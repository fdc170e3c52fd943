import { DateTime, type Zone } from "luxon";
import type { Granularity } from "./params";
import { ExpectedBadRequest, type OracleRange } from "./range";

/** docs/contract.md §3: a range needing more buckets than this is a 400. */
export const MAX_BUCKETS = 10_000;
const HOUR_MS = 3_600_000;

/** The full local start of the bucket containing `ms`, straight from luxon. */
export function bucketStartOf(ms: number, granularity: Granularity, zone: Zone): number {
  return DateTime.fromMillis(ms, { zone }).startOf(granularity).toMillis();
}

/**
 * The starts of the local buckets that meet the range, in order (the first may lie before the
 * range start). Hours step by 60 elapsed minutes, so the repeated autumn hour is two buckets and
 * the skipped spring hour none (every zone used has offsets in whole half hours that change on the
 * hour); days, ISO weeks and months step by the calendar, so a local day lasts 23 to 25 hours.
 */
export function bucketStarts(range: OracleRange, granularity: Granularity): number[] {
  const starts: number[] = [];
  if (range.endMs <= range.startMs) return starts;
  let start = DateTime.fromMillis(range.startMs, { zone: range.zone }).startOf(granularity);
  while (start.toMillis() < range.endMs) {
    if (starts.length === MAX_BUCKETS) throw new ExpectedBadRequest("granularity");
    starts.push(start.toMillis());
    start =
      granularity === "hour"
        ? DateTime.fromMillis(start.toMillis() + HOUR_MS, { zone: range.zone })
        : start.plus({ [`${granularity}s`]: 1 }).startOf(granularity);
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
