import type { TimeRange } from "./block";
import type { ResolvedRange } from "./rangeResolution";

/** A bucket as cut from the range, and as read once its edges are on the stored grid. */
interface Labelled extends TimeRange {
  label: string;
}

/**
 * What an answer is cut into, as a string: the range as resolved (after defaults and widening),
 * its zone as reported, and every bucket whose edges retention moved onto the stored grid (or
 * dropped). Two plans with the same frame sum the same instants into the same buckets, whichever
 * blocks they read (every cover is exact), so with the same data and parameters they give the
 * same answer. Unlike `keptState`, it changes only when an edge of this answer moves, not every
 * minute: an entity tag built on it (docs/contract.md §9) stays while the answer does.
 */
export function frameKey(
  resolved: ResolvedRange,
  buckets?: { rangeBuckets: readonly Labelled[]; snapped: readonly Labelled[] },
): string {
  const parts = [`${resolved.startMs}..${resolved.endMs}@${resolved.zoneName}`];
  if (buckets === undefined) return parts[0] as string;
  // `snapped` is `rangeBuckets` in order with some edges moved and empty ones dropped.
  let j = 0;
  buckets.rangeBuckets.forEach((bucket, i) => {
    const read = buckets.snapped[j];
    if (read?.label !== bucket.label) {
      parts.push(`${i}:dropped`);
      return;
    }
    j++;
    if (read.startMs !== bucket.startMs || read.endMs !== bucket.endMs)
      parts.push(`${i}:${read.startMs}..${read.endMs}`);
  });
  return parts.join(";");
}
