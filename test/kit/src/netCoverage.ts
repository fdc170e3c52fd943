import { nextUtc, type Tier } from "@vu/time-buckets";

/** A stored block added (+1) to or subtracted (−1) from a sum: the query planner's signed cover. */
interface SignedBlock {
  tier: Tier;
  startMs: number;
  sign: number;
}

/**
 * What a signed cover counts, as segments of constant weight: +1 where an instant is counted once,
 * 0 (omitted) where not at all; anything else is a wrong cover. A sweep over block edges, so a
 * check costs the blocks, not the minutes. For tests of the query planner's covers.
 */
export function netCoverage(
  blocks: readonly SignedBlock[],
): Array<{ startMs: number; endMs: number; weight: number }> {
  const deltas = new Map<number, number>();
  for (const b of blocks) {
    deltas.set(b.startMs, (deltas.get(b.startMs) ?? 0) + b.sign);
    const end = nextUtc(b.tier, b.startMs);
    deltas.set(end, (deltas.get(end) ?? 0) - b.sign);
  }
  const edges = [...deltas.keys()].sort((x, y) => x - y);
  const segments: Array<{ startMs: number; endMs: number; weight: number }> = [];
  let weight = 0;
  edges.forEach((edge, i) => {
    weight += deltas.get(edge) ?? 0;
    const next = edges[i + 1];
    if (weight === 0 || next === undefined) return;
    const last = segments.at(-1);
    if (last && last.endMs === edge && last.weight === weight) last.endMs = next;
    else segments.push({ startMs: edge, endMs: next, weight });
  });
  return segments;
}
