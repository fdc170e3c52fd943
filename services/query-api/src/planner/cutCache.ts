import type { Retention } from "@vu/time-buckets";
import { createBoundedCache } from "../cache/boundedCache";
import type { CutCache, CutEntry } from "./block";

/** Buckets held in all (each cut's range buckets and snapped ones): some tens of MB at most. */
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
    // The snapped buckets twice: once cut, once covered (added to the entry when first planned).
    weigh: (entry) => entry.cut.rangeBuckets.length + 2 * entry.cut.snapped.length,
  });
  return { retention, get: (key) => entries.get(key), set: (key, entry) => entries.set(key, entry) };
}
