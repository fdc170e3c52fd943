import { ceilUtc, floorUtc } from "@vu/time-buckets";
import type { IsKept, TimeRange } from "./block";

/** The tiers an interval edge can lie on, finest first. Weeks are never needed for an edge. */
export type GridTier = "minute" | "quarter" | "hour" | "day" | "month";

/*
 * The rule, in words:
 * Totals are always exact: the planner answers by summing stored UTC-aligned blocks, and every
 * boundary it uses lies on a block edge that still exists. Minute blocks are kept 35 days,
 * quarter-hour and hour blocks 400 days by default; day, week and month blocks are kept forever.
 * For each boundary the planner uses the finest grid still stored there: minutes while the minute
 * blocks of that UTC hour exist, else UTC quarter hours while the quarter-hour blocks of that UTC
 * hour and the hour blocks of that UTC day exist, else UTC hours while the hour blocks of that UTC
 * day exist, else UTC days while the day blocks of that UTC month exist, else UTC months. Every
 * zone whose offsets are whole quarter hours (every zone of today's IANA database) therefore has
 * exact local buckets for 400 days. The range start is moved back and the range end forward to that
 * grid (so the range only grows, and meta.start_date / meta.end_date report the bounds actually
 * used). A bucket boundary inside the range that is not on its grid (a local midnight in a zone not
 * aligned to UTC hours, for data older than 400 days) is moved to the nearest grid point (ties to
 * the earlier one); buckets left empty are dropped. Such old data may therefore be attributed to an
 * adjacent bucket by at most half a grid step (12 hours once only day blocks exist), while the sum
 * over all buckets is always exactly the sum over the reported range.
 */

/*
 * Why "the blocks of the parent span": the cover of an interval (blockCover.ts) reaches from an
 * edge t back to the start of t's UTC quarter hour with minute blocks (checked from the start of
 * t's hour, which is stricter), from there to the start of t's hour with quarter-hour blocks, from
 * there back to the start of t's UTC day with hour blocks, and from there to the start of t's UTC month with day blocks (or the
 * other way round at the interval's start, which only uses later, hence kept, blocks). Retention
 * is monotone (a later block of a tier is kept whenever an earlier one is), so it is enough to
 * check the earliest block each step uses. The checks are cumulative so that a configuration that
 * keeps hours barely longer than minutes still never plans a block that is gone.
 */

/**
 * The finest grid usable for an interval edge at `t`. Throws when even the month block containing
 * `t` is gone: the store cannot answer for that time at all, a configuration the planner does not
 * support (months are kept forever by default).
 */
export function gridAt(t: number, isKept: IsKept): GridTier {
  const monthStart = floorUtc("month", t);
  if (!isKept("month", monthStart)) {
    throw new Error(`no stored block covers ${new Date(t).toISOString()}: month blocks must be kept`);
  }
  if (!isKept("day", monthStart)) return "month";
  if (!isKept("hour", floorUtc("day", t))) return "day";
  if (!isKept("quarter", floorUtc("hour", t))) return "hour";
  if (!isKept("minute", floorUtc("hour", t))) return "quarter";
  return "minute";
}

/** Moves a range start back onto its grid. */
export function floorToGrid(t: number, isKept: IsKept): number {
  return floorUtc(gridAt(t, isKept), t);
}

/**
 * Moves a range end forward onto its grid. The result lies on its own grid too: it is aligned to
 * `t`'s grid, and the grid only gets finer later in time.
 */
export function ceilToGrid(t: number, isKept: IsKept): number {
  return ceilUtc(gridAt(t, isKept), t);
}

/** The grid point nearest to `t`, the earlier one on a tie. */
export function nearestOnGrid(t: number, isKept: IsKept): number {
  const grid = gridAt(t, isKept);
  const before = floorUtc(grid, t);
  const after = ceilUtc(grid, t);
  return t - before <= after - t ? before : after;
}

/**
 * Moves every boundary between adjacent buckets onto its grid (the outer edges are the range's
 * bounds, already on theirs), keeps the boundaries monotonic and within the range, and drops the
 * buckets that become empty. Buckets must be sorted, contiguous and span exactly `range`; the
 * result still spans exactly `range`, so the sum over all buckets never changes.
 */
export function snapBuckets<B extends TimeRange>(
  buckets: readonly B[],
  range: TimeRange,
  isKept: IsKept,
): B[] {
  const snapped: B[] = [];
  let start = range.startMs;
  buckets.forEach((bucket, i) => {
    const isLast = i === buckets.length - 1;
    const end = isLast
      ? range.endMs
      : Math.min(range.endMs, Math.max(start, nearestOnGrid(bucket.endMs, isKept)));
    if (end > start) snapped.push({ ...bucket, startMs: start, endMs: end });
    start = end;
  });
  return snapped;
}
