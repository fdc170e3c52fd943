import type { Retention } from "@vu/time-buckets";
import { createBoundedCache } from "../cache/boundedCache";
import type { CutCache, CutEntry } from "./block";

/** Buckets and blocks held in all (each cut's range and snapped buckets, its covers' blocks). */
const MAX_BUCKETS_HELD = 200_000;

/**
 * Cuts already made, and their covers (block.ts `CutCache`), bounded by the buckets they hold.
 */
export function createCutCache(retention: Retention, maxBuckets = MAX_BUCKETS_HELD): CutCache {
  // keptState is in the key, so an entry never goes stale; the day's limit only lets old ones go.
  const entries = createBoundedCache<CutEntry>({
    maxEntries: 10_000,
    ttlMs: 86_400_000,
    maxWeight: maxBuckets,
    // The snapped buckets twice, once cut and once covered, and the covers' blocks: an entry is
    // kept again, weighed anew, once a plan has covered it.
    weigh: (entry) =>
      entry.cut.rangeBuckets.length +
      2 * entry.cut.snapped.length +
      (entry.covered?.cover ? entry.covered.blocks : 0),
  });
  return { retention, get: (key) => entries.get(key), set: (key, entry) => entries.set(key, entry) };
}
