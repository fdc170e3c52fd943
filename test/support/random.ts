/**
 * A small seeded generator (sfc32) for the workload and the queries: the whole run is a function of
 * one printed seed, so a failure replays with `VU_SEED=<seed>`. Not shared with @vu/demo-data on
 * purpose: the test's randomness must not shift when the product's generator changes.
 */
export interface Random {
  /** A float in [0, 1). */
  float(): number;
  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  chance(p: number): boolean;
  pick<T>(items: readonly T[]): T;
  /** Up to `max` distinct items (at least one when the list is not empty), in random order. */
  some<T>(items: readonly T[], max: number): T[];
  /** A child generator whose draws do not shift this one's (one per workload part). */
  fork(label: string): Random;
}

function sfc32(a: number, b: number, c: number, d: number): () => number {
  return () => {
    a |= 0;
    b |= 0;
    c |= 0;
    d |= 0;
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return (t >>> 0) / 4_294_967_296;
  };
}

/** FNV-1a of a label mixed into the seed, so forks with different labels are unrelated. */
function mix(seed: number, label: string): number {
  let hash = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < label.length; i++) hash = Math.imul(hash ^ label.charCodeAt(i), 0x01000193) >>> 0;
  return hash;
}

export function createRandom(seed: number): Random {
  const next = sfc32(0x9e3779b9, 0x243f6a88, 0xb7e15162, seed >>> 0);
  // The first outputs of sfc32 are poorly mixed.
  for (let i = 0; i < 15; i++) next();
  const random: Random = {
    float: next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: (items) => {
      const item = items[Math.floor(next() * items.length)];
      if (item === undefined) throw new RangeError("cannot pick from an empty list");
      return item;
    },
    some: (items, max) => {
      const pool = [...items];
      const count = Math.min(pool.length, random.int(1, Math.max(1, max)));
      const chosen = [];
      for (let i = 0; i < count; i++) chosen.push(...pool.splice(Math.floor(next() * pool.length), 1));
      return chosen;
    },
    fork: (label) => createRandom(mix(seed, label)),
  };
  return random;
}
