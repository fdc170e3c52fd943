import type { Retention } from "@vu/time-buckets";
import type { IsKept, SignedBlock } from "./block";

/**
 * Signed covers already found, by interval: a dashboard asks for the same buckets again and again
 * (every user, every reload), and the search for a zone's cheapest cover is the planner's main
 * cost. A remembered cover is used only while every block in it is still kept, which is all a
 * cover needs to be exact; once a block has aged out, the cover is searched anew. One cache serves
 * one retention (the planner bypasses it for another). Bounded: the entry used longest ago makes room.
 */
export interface CoverCache {
  readonly retention: Retention;
  cover(startMs: number, endMs: number, isKept: IsKept, search: () => SignedBlock[]): readonly SignedBlock[];
}

export function createCoverCache(retention: Retention, maxEntries = 50_000): CoverCache {
  const entries = new Map<string, readonly SignedBlock[]>();
  const remember = (key: string, cover: readonly SignedBlock[]) => {
    entries.delete(key);
    entries.set(key, cover);
    for (const oldest of entries.keys()) {
      if (entries.size <= maxEntries) break;
      entries.delete(oldest);
    }
    return cover;
  };
  return {
    retention,
    cover(startMs, endMs, isKept, search) {
      const key = `${startMs}:${endMs}`;
      const known = entries.get(key);
      if (known?.every((b) => isKept(b.tier, b.startMs))) return remember(key, known);
      return remember(key, search());
    },
  };
}
