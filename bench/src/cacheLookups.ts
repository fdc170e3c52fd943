import { CACHE_LOOKUPS, CACHE_LOOKUPS_METRIC, type CacheLookup } from "@vu/query-api";

/** The API's result-cache lookups by outcome (its /metrics, every API process summed). */
export type CacheLookups = Record<CacheLookup, number>;

/** The counters in a /metrics text; an outcome the text lacks counts 0. */
export function parseCacheLookups(text: string): CacheLookups {
  const counts = Object.fromEntries(CACHE_LOOKUPS.map((o) => [o, 0])) as CacheLookups;
  for (const line of text.split("\n")) {
    if (!line.startsWith(`${CACHE_LOOKUPS_METRIC}{`)) continue;
    const outcome = /outcome="(\w+)"/.exec(line)?.[1];
    if (outcome !== undefined && outcome in counts)
      counts[outcome as CacheLookup] += Number(line.split(" ").at(-1));
  }
  return counts;
}

export async function readCacheLookups(opsUrl: string): Promise<CacheLookups> {
  return parseCacheLookups(await (await fetch(`${opsUrl}/metrics`)).text());
}

/** The lookups between two readings. */
export function lookupsBetween(before: CacheLookups, after: CacheLookups): CacheLookups {
  return Object.fromEntries(CACHE_LOOKUPS.map((o) => [o, after[o] - before[o]])) as CacheLookups;
}

/**
 * Kept answers served ÷ the questions that looked for one (hits, joins, misses); `bypass` (the
 * client's `no-cache`) never looks. NaN when nothing looked.
 */
export function hitRate(lookups: CacheLookups): number {
  const looked = lookups.hit + lookups.joined + lookups.miss;
  return looked === 0 ? Number.NaN : lookups.hit / looked;
}

/** Several runs' lookups together. */
export function sumLookups(runs: readonly CacheLookups[]): CacheLookups {
  return Object.fromEntries(
    CACHE_LOOKUPS.map((o) => [o, runs.reduce((n, r) => n + r[o], 0)]),
  ) as CacheLookups;
}
