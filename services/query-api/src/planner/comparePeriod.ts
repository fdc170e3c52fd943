import { ceilUtc, floorUtc, MINUTE_MS } from "@vu/time-buckets";
import type { Zone } from "luxon";
import { keptAt, type PlanContext, type TimeRange } from "./block";
import type { ResolvedRange } from "./rangeResolution";
import { ceilToGrid, floorToGrid } from "./retentionGrid";
import { wallClockToInstant } from "./wallClock";

/** docs/contract.md §7 `compare`: what the range is compared with. */
export const COMPARE_KINDS = ["previous_period", "previous_year"] as const;
export type CompareKind = (typeof COMPARE_KINDS)[number];

/** An instant moved back in the query zone's calendar (docs/contract.md §7 `compare`). */
export type Shift = (ms: number) => number;

/** The zone's wall clock at `ms`, encoded as if it were UTC (see wallClock.ts). */
const wallOf = (ms: number, zone: Zone) => ms + zone.offset(ms) * MINUTE_MS;

/**
 * One calendar year back on the wall clock: same month, day and time, the 29th of February
 * becoming the 28th; read back into an instant by §2's rule (a time shown twice is its first
 * occurrence, one never shown moves forward by the gap).
 */
function yearBack(zone: Zone): Shift {
  return (ms) => {
    const wall = new Date(wallOf(ms, zone));
    const year = wall.getUTCFullYear() - 1;
    const month = wall.getUTCMonth();
    // Day 0 of the next month is the month's last (setUTCFullYear: Date.UTC maps years 0–99 to 19xx).
    const last = new Date(0);
    last.setUTCFullYear(year, month + 1, 0);
    const daysInMonth = last.getUTCDate();
    const back = new Date(wall.getTime());
    back.setUTCFullYear(year, month, Math.min(wall.getUTCDate(), daysInMonth));
    return wallClockToInstant(back.getTime(), zone);
  };
}

/** Back by the range's own length on the wall clock, so whole local days stay whole local days. */
function periodBack(range: TimeRange, zone: Zone): Shift {
  const length = wallOf(range.endMs, zone) - wallOf(range.startMs, zone);
  return (ms) => wallClockToInstant(wallOf(ms, zone) - length, zone);
}

export interface PreviousRange {
  /** The previous range, on minute and stored block edges like the range itself. */
  range: ResolvedRange;
  /** How an instant of the range moves back; the previous range's edges are its bounds moved back. */
  shift: Shift;
}

/**
 * The range a query is compared with (docs/contract.md §7 `compare`): `previous_period` ends where
 * the range starts and is as long on the wall clock; `previous_year` is the range one calendar
 * year earlier. Widened, as the range was, to whole minutes and to the blocks still stored.
 */
export function previousRange(kind: CompareKind, range: ResolvedRange, context: PlanContext): PreviousRange {
  const shift = kind === "previous_year" ? yearBack(range.zone) : periodBack(range, range.zone);
  const end = kind === "previous_period" ? range.startMs : shift(range.endMs);
  // A range inside a repeated autumn hour can move back to an inverted one: it is then empty.
  const start = Math.min(shift(range.startMs), end);
  const isKept = keptAt(context);
  const startMs = floorToGrid(floorUtc("minute", start), isKept);
  const endMs = Math.max(startMs, ceilToGrid(ceilUtc("minute", end), isKept));
  return { range: { ...range, startMs, endMs }, shift };
}

/** Bucket starts within their range, in order (a plan's `rangeBuckets`). */
type Starts = ReadonlyArray<{ startMs: number }>;

/**
 * For each bucket of the range, the index of its counterpart among the previous range's buckets
 * (docs/contract.md §7): the bucket holding the moment where the bucket starts within the range,
 * moved back by `shift` and kept within the previous range. −1 when the previous range is empty.
 */
export function pairBuckets(
  buckets: Starts,
  previous: Starts,
  previousRange: TimeRange,
  shift: Shift,
): number[] {
  return buckets.map(({ startMs }) => {
    if (previous.length === 0) return -1;
    const moved = Math.min(Math.max(shift(startMs), previousRange.startMs), previousRange.endMs - 1);
    let lo = 0;
    let hi = previous.length - 1;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if ((previous[mid] as { startMs: number }).startMs <= moved) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  });
}
