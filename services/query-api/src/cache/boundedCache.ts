export interface BoundedCacheOptions<V> {
  /** The least recently used entry makes room once this many are held. */
  maxEntries: number;
  /** Each entry is forgotten this long after it was set. */
  ttlMs: number;
  /**
   * With `weigh`: least recently used entries also make room while the entries' total weight is
   * above this, and an entry heavier than it is not kept at all.
   */
  maxWeight?: number;
  weigh?: (value: V) => number;
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
  maxWeight = Number.POSITIVE_INFINITY,
  weigh = () => 0,
  now = Date.now,
}: BoundedCacheOptions<V>): BoundedCache<V> {
  // A Map iterates in insertion order: re-inserting on use keeps the least recently used first.
  const entries = new Map<string, { value: V; until: number; weight: number }>();
  let totalWeight = 0;
  const remove = (key: string) => {
    const entry = entries.get(key);
    if (entry === undefined) return undefined;
    entries.delete(key);
    totalWeight -= entry.weight;
    return entry;
  };
  return {
    get(key) {
      const entry = remove(key);
      if (entry === undefined || entry.until <= now()) return undefined;
      entries.set(key, entry);
      totalWeight += entry.weight;
      return entry.value;
    },
    set(key, value) {
      remove(key);
      const weight = weigh(value);
      if (weight > maxWeight) return;
      entries.set(key, { value, until: now() + ttlMs, weight });
      totalWeight += weight;
      for (const oldest of entries.keys()) {
        if (entries.size <= maxEntries && totalWeight <= maxWeight) break;
        remove(oldest);
      }
    },
    delete(key) {
      remove(key);
    },
    get size() {
      return entries.size;
    },
  };
}
