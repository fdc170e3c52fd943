import { ceilUtc, floorUtc, isAlignedUtc, nextUtc, type Tier } from "@vu/time-buckets";
import type { Block, IsKept } from "./block";
import { coverWholeDays } from "./dayCover";

/** Consecutive blocks of one tier from `startMs` up to `endMs`, asserting each is kept. */
function run(tier: Tier, startMs: number, endMs: number, isKept: IsKept): Block[] {
  const blocks: Block[] = [];
  for (let t = startMs; t < endMs; t = nextUtc(tier, t)) {
    if (!isKept(tier, t)) {
      throw new Error(`the ${tier} block at ${new Date(t).toISOString()} is needed but no longer kept`);
    }
    blocks.push({ tier, startMs: t });
  }
  return blocks;
}

/**
 * The minimal list of stored blocks whose union is exactly [startMs, endMs), ordered by start:
 * each block UTC-aligned, kept, wholly inside the interval, and disjoint from the others.
 *
 * Minute ⊂ hour ⊂ day nest, so the sub-day parts are forced: any block containing an instant that
 * is not on an hour edge is a minute block, and so on. Hence minutes up to the first hour edge,
 * hours up to the first day edge, whole days in the middle (solved as a shortest path, see
 * dayCover.ts), then hours and minutes at the tail, mirrored.
 *
 * Throws (a programming error, not bad input) when the interval cannot be covered: an edge not on
 * a minute, or a block that the retention grid (retentionGrid.ts) should have avoided.
 */
export function coverInterval(startMs: number, endMs: number, isKept: IsKept): Block[] {
  if (!isAlignedUtc("minute", startMs) || !isAlignedUtc("minute", endMs) || endMs < startMs) {
    throw new Error(`cannot cover ${startMs}..${endMs}: not an interval of whole minutes`);
  }
  const firstHour = ceilUtc("hour", startMs);
  const lastHour = floorUtc("hour", endMs);
  if (firstHour > lastHour) return run("minute", startMs, endMs, isKept);

  const firstDay = ceilUtc("day", startMs);
  const lastDay = floorUtc("day", endMs);
  const head = run("minute", startMs, firstHour, isKept);
  const tail = run("minute", lastHour, endMs, isKept);
  if (firstDay > lastDay) return [...head, ...run("hour", firstHour, lastHour, isKept), ...tail];

  return [
    ...head,
    ...run("hour", firstHour, firstDay, isKept),
    ...coverWholeDays(firstDay, lastDay, isKept),
    ...run("hour", lastDay, lastHour, isKept),
    ...tail,
  ];
}
