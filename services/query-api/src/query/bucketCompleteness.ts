import type { OutputBucket } from "../planner";

/**
 * docs/contract.md §9 `complete`: a row is complete when its bucket ends at or before the
 * instant up to which every partition has been applied (`X-Data-As-Of`); later, the bucket may
 * still grow. A bucket's end is that of its part of the range (the next bucket's start, or the
 * range's end), as cut in the query's zone.
 */
export interface BucketEnds {
  /** The range's buckets, in order: their ends only increase. */
  readonly buckets: readonly Pick<OutputBucket, "label" | "endMs">[];
}

export interface Completeness {
  /** How many of the range's first buckets are complete: all a page's `complete` fields follow from it. */
  count: number;
  isComplete(label: string): boolean;
}

/** The number of buckets ending at or before `asOfMs`; none when no instant is known. */
export function completeCount(ends: BucketEnds, asOfMs: number | null | undefined): number {
  if (asOfMs === undefined || asOfMs === null) return 0;
  let lo = 0;
  let hi = ends.buckets.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((ends.buckets[mid]?.endMs ?? Number.POSITIVE_INFINITY) <= asOfMs) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Each label's place among the buckets, made once per answer (a page asks for few of them). */
const places = new WeakMap<BucketEnds, Map<string, number>>();

function placeOf(ends: BucketEnds, label: string): number {
  let byLabel = places.get(ends);
  if (byLabel === undefined) {
    byLabel = new Map(ends.buckets.map((bucket, i) => [bucket.label, i]));
    places.set(ends, byLabel);
  }
  return byLabel.get(label) ?? Number.POSITIVE_INFINITY;
}

/** Which rows are complete at `asOfMs` (the instant sent as `X-Data-As-Of`, or none). */
export function completenessAt(ends: BucketEnds, asOfMs: number | null | undefined): Completeness {
  const count = completeCount(ends, asOfMs);
  return { count, isComplete: (label) => placeOf(ends, label) < count };
}
