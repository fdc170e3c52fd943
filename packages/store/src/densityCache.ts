import { denseTiers, type StoredTier } from "./blockPlacement";

/** Organizations whose dense tiers a writer remembers; past it, the longest unused is forgotten. */
const MAX_ORGS = 100_000;

export interface DenseLayout {
  /** As the extent's `dense` field spells them, which the apply script compares. */
  codes: string;
  tiers: ReadonlySet<StoredTier>;
}

const NONE: DenseLayout = { codes: "", tiers: new Set() };

/**
 * What a writer last heard of each organization's dense tiers (every apply reply says), so a batch
 * is laid out right the first time. A wrong guess costs one refused call (`-4`), never a wrong
 * count: the apply script checks the layout before writing. A new organization has none.
 */
export function createDensityCache() {
  const known = new Map<string, DenseLayout>();
  return {
    of(org: string): DenseLayout {
      return known.get(org) ?? NONE;
    },
    learn(org: string, codes: string): void {
      if (known.get(org)?.codes === codes) return;
      known.delete(org);
      known.set(org, codes === "" ? NONE : { codes, tiers: denseTiers(codes) });
      if (known.size > MAX_ORGS) {
        const oldest = known.keys().next().value;
        if (oldest !== undefined) known.delete(oldest);
      }
    },
  };
}
