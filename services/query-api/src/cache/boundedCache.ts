export interface BoundedCacheOptions {
  /** The least recently used entry makes room once this many are held. */
  maxEntries: number;
  /** Each entry is forgotten this long after it was set. */
  ttlMs: number;
  now?: () => number;
}

export interface BoundedCache<V> {
  /** The value while it is fresh; a hit makes the entry the most recently used. */
  get(key: string): V | undefined;
  set(key: string, value: V): void;
  delete(key: string): void;
  readonly size: number;
}

/**
 * A cache that never grows past `maxEntries` and never serves an entry older than `ttlMs`. Full, it
 * evicts one entry, the least recently used, rather than clearing itself: a flood of new keys
 * (made-up tokens, many addresses) then costs the flood's own entries, not everyone's.
 */
export function createBoundedCache<V>({
  maxEntries,
  ttlMs,
  now = Date.now,
}: BoundedCacheOptions): BoundedCache<V> {
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  const entries = new Map<string, { value: V; until: number }>();
  return {
    get(key) {
      const entry = entries.get(key);
      if (entry === undefined) return undefined;
      entries.delete(key);
      if (entry.until <= now()) return undefined;
      entries.set(key, entry);
      return entry.value;
    },
    set(key, value) {
      entries.delete(key);
      entries.set(key, { value, until: now() + ttlMs });
      for (const oldest of entries.keys()) {
        if (entries.size <= maxEntries) break;
        entries.delete(oldest);
      }
    },
    delete(key) {
      entries.delete(key);
    },
    get size() {
      return entries.size;
    },
  };
}
