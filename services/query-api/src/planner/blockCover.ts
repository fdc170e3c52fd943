import type { BlockRef } from "@vu/store";
import { ceilUtc, floorUtc, isAlignedUtc, nextUtc, type Tier } from "@vu/time-buckets";
import type { IsKept } from "./block";
import { coverWholeDays } from "./dayCover";

/** Consecutive blocks of one tier from `startMs` up to `endMs`, asserting each is kept. */
function run(tier: Tier, startMs: number, endMs: number, isKept: IsKept): BlockRef[] {
  const blocks: BlockRef[] = [];
  for (let t = startMs; t < endMs; t = nextUtc(tier, t)) {
    if (!isKept(tier, t)) {
      throw new Error(`the ${tier} block at ${new Date(t).toISOString()} is needed but no longer kept`);
    }
    blocks.push({ tier, startMs: t });
  }
  return blocks;
}

/** The nested sub-day tiers, finest first: each one's blocks tile the next one's exactly. */
const NESTED: readonly Tier[] = ["minute", "quarter", "hour"];

/**
 * The minimal list of stored blocks whose union is exactly [startMs, endMs), ordered by start:
 * each block UTC-aligned, kept, wholly inside the interval, and disjoint from the others.
 *
 * Minute ⊂ quarter ⊂ hour ⊂ day nest, so the sub-day parts are forced: any block containing an
 * instant that is not on a quarter edge is a minute block, and so on. Hence minutes up to the first
 * quarter edge, quarters up to the first hour edge, hours up to the first day edge, whole days in
 * the middle (solved as a shortest path, see dayCover.ts), then hours, quarters and minutes at the
 * tail, mirrored.
 *
 * Throws (a programming error, not bad input) when the interval cannot be covered: an edge not on
 * a minute, or a block that the retention grid (retentionGrid.ts) should have avoided.
 */
export function coverInterval(startMs: number, endMs: number, isKept: IsKept): BlockRef[] {
  if (!isAlignedUtc("minute", startMs) || !isAlignedUtc("minute", endMs) || endMs < startMs) {
    throw new Error(`cannot cover ${startMs}..${endMs}: not an interval of whole minutes`);
  }
  return coverFrom(0, startMs, endMs, isKept);
}

/** Cover of [startMs, endMs) with blocks of NESTED[level] and coarser. */
function coverFrom(level: number, startMs: number, endMs: number, isKept: IsKept): BlockRef[] {
  const tier = NESTED[level];
  if (tier === undefined) return coverWholeDays(startMs, endMs, isKept);
  const coarser = NESTED[level + 1] ?? "day";
  const first = ceilUtc(coarser, startMs);
  const last = floorUtc(coarser, endMs);
  if (first > last) return run(tier, startMs, endMs, isKept);
  return [
    ...run(tier, startMs, first, isKept),
    ...coverFrom(level + 1, first, last, isKept),
    ...run(tier, last, endMs, isKept),
  ];
}
