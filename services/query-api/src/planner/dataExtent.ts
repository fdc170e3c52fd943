import type { IsKept, TimeRange } from "./block";
import { ceilToGrid, floorToGrid } from "./retentionGrid";

/**
 * The instants where the organization may have data, [startMs, endMs): the planner reads no block
 * outside it. Undefined: anywhere (nothing is known, so nothing is skipped).
 */
export type DataExtent = TimeRange | undefined;

/** Whether a bucket can hold data. */
export function mayHoldData(bucket: TimeRange, extent: DataExtent): boolean {
  return extent === undefined || (bucket.startMs < extent.endMs && bucket.endMs > extent.startMs);
}

/**
 * The part of `range` that can hold data, with its edges on the stored grid (so it can be
 * covered exactly), or null when none can. Only empty time is cut off, so sums do not change.
 */
export function clampToExtent(range: TimeRange, extent: DataExtent, isKept: IsKept): TimeRange | null {
  if (extent === undefined) return range;
  if (!mayHoldData(range, extent)) return null;
  const startMs = Math.max(range.startMs, floorToGrid(extent.startMs, isKept));
  const endMs = Math.min(range.endMs, ceilToGrid(extent.endMs, isKept));
  return startMs < endMs ? { startMs, endMs } : null;
}
