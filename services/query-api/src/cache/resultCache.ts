import type { ReadView, RollupReader } from "@vu/store";
import { createAnswerStore } from "./answerStore";
import { type StampAtStart, stampIn } from "./stampAtStart";

/** An answer and the state of the store it was computed from. */
export interface ComputedAnswer<T> {
  value: T;
  /** The view (generation and epoch) and the organization's write stamp the answer's read saw. */
  view: ReadView;
  stamp: string | null;
  /** What holding the answer costs, in rows. */
  rows: number;
}

export interface ResultCache {
  /**
   * The answer to `key` for `org`: the one computed before, while the organization's write stamp
   * still has the value it was computed at, else a new one from `compute`. Without a key (an
   * answer that depends on the moment, e.g. a range ending "now") or with `noCache` (the client's
   * `Cache-Control: no-cache`), it computes; a computed answer is kept when it has a key. A
   * computation runs only when nothing kept or under way answers, so whatever bounds it (the
   * query's, query/computationBounds.ts) belongs inside `compute`. A kept answer is checked
   * against `atStart`, the stamp read as the request started, when it was read in the view now.
   */
  answer<T>(
    org: string,
    key: string | undefined,
    noCache: boolean,
    compute: () => Promise<ComputedAnswer<T>>,
    atStart?: StampAtStart,
  ): Promise<T>;
}

export interface ResultCacheOptions {
  reader: Pick<RollupReader, "view" | "writeStamp">;
  /** Rows held in all by ordinary answers, each at most a quarter of them. 0 keeps nothing. */
  maxRows: number;
  /** Rows held in all by larger answers, apart from the others (answerStore.ts). Default 0: none kept. */
  maxLargeRows?: number;
  /** Unused answers are forgotten after this long (they are checked on every use anyway). */
  ttlMs?: number;
  /** Told how each question was answered (`vu_result_cache_lookups_total`). */
  onLookup?: (outcome: CacheLookup) => void;
}

/**
 * How a question was answered: a kept answer (`hit`), a computation under way shared (`joined`),
 * computed after looking (`miss`, a kept answer whose stamp moved included), or computed without
 * looking (`bypass`: no key, the cache off, or the client's `no-cache`).
 */
export type CacheLookup = "hit" | "joined" | "miss" | "bypass";
export const CACHE_LOOKUPS: readonly CacheLookup[] = ["hit", "joined", "miss", "bypass"];

interface Entry {
  value: unknown;
  stamp: string;
  rows: number;
}

/**
 * Answers repeated queries without reading or summing a block (dashboards repeat theirs). Exact,
 * not "fresh enough": the apply script increments the organization's write stamp atomically with
 * every batch it counts, the answer is kept with the stamp its own read saw (in the same MULTI as
 * the blocks), and it is served again only after an `HGET` shows the same stamp, the cost of
 * `/stats/dimensions`. Whatever else an answer depends on (the query, the keyspace generation and
 * epoch, which blocks retention still keeps) is in its key; stamps carry Redis' clock, so even a
 * Redis that lost its state or went back to a snapshot never shows a stamp an answer was kept at
 * for other data. Answers without a stamp (no data) are never kept.
 */
export function createResultCache({
  reader,
  maxRows,
  maxLargeRows = 0,
  ttlMs = 10 * 60_000,
  onLookup = () => undefined,
}: ResultCacheOptions): ResultCache {
  const entries = createAnswerStore<Entry>({ maxRows, maxLargeRows, ttlMs, rowsOf: (entry) => entry.rows });
  // Computations under way, by id: a burst of the same query (a dashboard opened by many people
  // at once, or every client right after the stamp moved) computes it once, not once per request.
  const computing = new Map<string, Promise<ComputedAnswer<unknown>>>();

  /** The answer of a computation under way, while the stamp it read is still the stamp. */
  async function joined<T>(
    pending: Promise<ComputedAnswer<T>>,
    view: ReadView,
    org: string,
  ): Promise<ComputedAnswer<T> | undefined> {
    const shared = await pending.catch(() => undefined);
    if (shared === undefined || shared.stamp === null || !sameView(shared.view, view)) return undefined;
    // Its read may predate this request: served only if nothing was counted since.
    return (await reader.writeStamp(view.generation, org)) === shared.stamp ? shared : undefined;
  }

  return {
    async answer<T>(
      org: string,
      key: string | undefined,
      noCache: boolean,
      compute: () => Promise<ComputedAnswer<T>>,
      atStart?: StampAtStart,
    ): Promise<T> {
      if (key === undefined || maxRows === 0) {
        onLookup("bypass");
        return (await compute()).value;
      }
      const view = await reader.view();
      const id = `${view.generation}\u0000${view.epoch}\u0000${org}\u0000${key}`;
      const known = noCache ? undefined : entries.get(id);
      if (known !== undefined && (await stampIn(reader, view, org, atStart)) === known.stamp) {
        onLookup("hit");
        return known.value as T;
      }
      // Looked up without a pause in between, so that a burst finds the first request's computation.
      const pending = noCache ? undefined : (computing.get(id) as Promise<ComputedAnswer<T>> | undefined);
      const shared = pending && (await joined(pending, view, org));
      if (shared) {
        onLookup("joined");
        return shared.value;
      }
      onLookup(noCache ? "bypass" : "miss");
      const computation = compute();
      computing.set(id, computation);
      const computed = await computation.finally(() => {
        if (computing.get(id) === computation) computing.delete(id);
      });
      // Read in another generation or epoch (a rebuild switched in between): not the state this key names.
      if (computed.stamp !== null && sameView(computed.view, view)) {
        entries.set(id, { value: computed.value, stamp: computed.stamp, rows: computed.rows });
      }
      return computed.value;
    },
  };
}

const sameView = (a: ReadView, b: ReadView) => a.generation === b.generation && a.epoch === b.epoch;
