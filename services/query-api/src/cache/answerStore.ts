import { createBoundedCache } from "./boundedCache";

export interface AnswerStoreOptions<E> {
  /** Rows held in all by ordinary answers, each at most a quarter of them. */
  maxRows: number;
  /**
   * Rows held in all by larger answers (a 100,000-group `/stats` query), apart: however many of
   * them come, the ordinary answers in use stay. An answer larger than this is not kept. 0 keeps none.
   */
  maxLargeRows: number;
  ttlMs: number;
  rowsOf: (entry: E) => number;
}

export interface AnswerStore<E> {
  get(id: string): E | undefined;
  /** Keeps `entry` where its size belongs, replacing what `id` held; or drops it when too large. */
  set(id: string, entry: E): void;
}

const MAX_ENTRIES = 10_000;
/** Few large answers fit anyway; a bound on their count keeps eviction cheap. */
const MAX_LARGE_ENTRIES = 256;

/**
 * Two least-recently-used stores weighed in rows: one for ordinary answers, one for large ones, so
 * that paging through a large answer costs one computation without pushing out everyone else's.
 */
export function createAnswerStore<E>({
  maxRows,
  maxLargeRows,
  ttlMs,
  rowsOf,
}: AnswerStoreOptions<E>): AnswerStore<E> {
  const weigh = (entry: E) => rowsOf(entry) + 1;
  const small = createBoundedCache<E>({ maxEntries: MAX_ENTRIES, ttlMs, maxWeight: maxRows, weigh });
  const large = createBoundedCache<E>({
    maxEntries: MAX_LARGE_ENTRIES,
    ttlMs,
    maxWeight: maxLargeRows,
    weigh,
  });
  const largest = maxRows / 4;
  return {
    get: (id) => small.get(id) ?? large.get(id),
    set(id, entry) {
      small.delete(id);
      large.delete(id);
      // The large store refuses what outweighs it whole (boundedCache.ts).
      (rowsOf(entry) <= largest ? small : large).set(id, entry);
    },
  };
}
