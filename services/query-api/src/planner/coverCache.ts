import type { Retention } from "@vu/time-buckets";
import { createBoundedCache } from "../cache/boundedCache";
import type { CoverCache, SignedBlock } from "./block";

/**
 * Signed covers already found, by interval: a dashboard asks for the same buckets again and again
 * (every user, every reload), and the search for a zone's cheapest cover is the planner's main
 * cost. A remembered cover is used only while every block in it is still kept, which is all a
 * cover needs to be exact; once a block has aged out, the cover is searched anew. One cache serves
 * one retention (the planner bypasses it for another). Bounded: the entry used longest ago makes
 * room, and none is kept past a day (the retention moves on).
 */
export function createCoverCache(retention: Retention, maxEntries = 50_000): CoverCache {
  const entries = createBoundedCache<readonly SignedBlock[]>({ maxEntries, ttlMs: 86_400_000 });
  return {
    retention,
    cover(startMs, endMs, isKept, search) {
      const key = `${startMs}:${endMs}`;
      const known = entries.get(key);
      if (known?.every((b) => isKept(b.tier, b.startMs))) return known;
      const found = search();
      entries.set(key, found);
      return found;
    },
  };
}
