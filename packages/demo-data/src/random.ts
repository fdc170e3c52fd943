import { xoroshiro128plus } from "pure-rand";

/**
 * A seeded source of random numbers. It wraps pure-rand's xoroshiro128+ in its mutating ("unsafe")
 * mode: the generator produces millions of values, and the pure mode would allocate a new generator
 * and a tuple per value.
 */
export interface Random {
  /** A float in [0, 1) with 53 bits of precision. */
  float(): number;
  /** A float in [min, max). */
  between(min: number, max: number): number;
  /** An integer in [min, max], both inclusive. */
  int(min: number, max: number): number;
  /** True with probability `p`. */
  chance(p: number): boolean;
  /** A standard normal variate (mean 0, deviation 1). */
  normal(): number;
  /** One element of a non-empty list, uniformly. */
  pick<T>(items: readonly T[]): T;
}

const TWO_POW_26 = 2 ** 26;
const TWO_POW_53 = 2 ** 53;

export function createRandom(seed: number): Random {
  const generator = xoroshiro128plus(seed);
  // Two 32-bit outputs make one double: 27 + 26 bits, the same construction as Java's nextDouble.
  const float = (): number => {
    const high = generator.unsafeNext() >>> 5;
    const low = generator.unsafeNext() >>> 6;
    return (high * TWO_POW_26 + low) / TWO_POW_53;
  };
  return {
    float,
    between: (min, max) => min + float() * (max - min),
    int: (min, max) => min + Math.floor(float() * (max - min + 1)),
    chance: (p) => float() < p,
    // Box-Muller; 1 - float() lies in (0, 1], so the logarithm stays finite.
    normal: () => Math.sqrt(-2 * Math.log(1 - float())) * Math.cos(2 * Math.PI * float()),
    pick: <T>(items: readonly T[]): T => {
      const item = items[Math.floor(float() * items.length)];
      if (item === undefined) throw new RangeError("cannot pick from an empty list");
      return item;
    },
  };
}

/**
 * Derives an independent 32-bit seed from a seed and a label (FNV-1a over the label, mixed with the
 * seed), so that e.g. an organization's profile and its events do not share one random stream and
 * adding a draw to one does not shift the other.
 */
export function deriveSeed(seed: number, label: string): number {
  let hash = 0x811c9dc5 ^ (seed | 0);
  for (let i = 0; i < label.length; i++) {
    hash = Math.imul(hash ^ label.charCodeAt(i), 0x01000193);
  }
  // Final avalanche (murmur3 fmix32) so that labels differing in one character give unrelated seeds.
  hash = Math.imul(hash ^ (hash >>> 16), 0x85ebca6b);
  hash = Math.imul(hash ^ (hash >>> 13), 0xc2b2ae35);
  return (hash ^ (hash >>> 16)) | 0;
}

/** A copy of `items` in random order (sorting by random keys: no index juggling). */
export function shuffled<T>(items: readonly T[], random: Random): T[] {
  return items
    .map((item) => ({ item, key: random.float() }))
    .sort((a, b) => a.key - b.key)
    .map(({ item }) => item);
}
