import { createHash } from "node:crypto";
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
 * minute: an entity tag built on it (docs/contract.md §9) stays while the answer does. The moved
 * buckets (every one, for old data in a zone off UTC) are named by their count and a digest, so a
 * frame stays short whatever the range.
 */
export function frameKey(
  resolved: ResolvedRange,
  buckets?: { rangeBuckets: readonly Labelled[]; snapped: readonly Labelled[] },
): string {
  const range = `${resolved.startMs}..${resolved.endMs}@${resolved.zoneName}`;
  if (buckets === undefined) return range;
  const moved: string[] = [];
  // `snapped` is `rangeBuckets` in order with some edges moved and empty ones dropped.
  let j = 0;
  buckets.rangeBuckets.forEach((bucket, i) => {
    const read = buckets.snapped[j];
    if (read?.label !== bucket.label) {
      moved.push(`${i}:dropped`);
      return;
    }
    j++;
    if (read.startMs !== bucket.startMs || read.endMs !== bucket.endMs)
      moved.push(`${i}:${read.startMs}..${read.endMs}`);
  });
  if (moved.length === 0) return range;
  const digest = createHash("sha256").update(moved.join(";")).digest("base64url");
  return `${range};moved ${moved.length}:${digest}`;
}
