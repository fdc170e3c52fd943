/**
 * A memo holding values up to a total size, dropping the least recently used first. A value larger
 * than the whole budget is built and returned but not kept.
 */
export interface BoundedCache<V> {
  /** The value under `key`, built by `build` when not held. */
  get(key: string, build: () => V): V;
}

export function createBoundedCache<V>(budget: number, sizeOf: (value: V) => number): BoundedCache<V> {
  // A Map iterates in insertion order: re-inserting on every hit keeps the least recent first.
  const entries = new Map<string, { value: V; size: number }>();
  let held = 0;
  return {
    get(key, build) {
      const found = entries.get(key);
      if (found !== undefined) {
        entries.delete(key);
        entries.set(key, found);
        return found.value;
      }
      const value = build();
      const size = sizeOf(value);
      if (size > budget) return value;
      for (const [oldKey, old] of entries) {
        if (held + size <= budget) break;
        entries.delete(oldKey);
        held -= old.size;
      }
      entries.set(key, { value, size });
      held += size;
      return value;
    },
  };
}
