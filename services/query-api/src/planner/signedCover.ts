import { ceilUtc, floorUtc, type Tier } from "@vu/time-buckets";
import type { IsKept, SignedBlock } from "./block";
import { coverInterval } from "./blockCover";

/** Tiers whose edges may serve as an anchor beyond a bucket edge. */
const ANCHOR_TIERS: readonly Tier[] = ["hour", "day", "week", "month"];

/** Where a cover may start (or end) instead of the edge itself: the edge, or a coarser edge near it. */
function anchorsOf(edge: number): number[] {
  const anchors = new Set<number>([edge]);
  for (const tier of ANCHOR_TIERS) {
    anchors.add(floorUtc(tier, edge));
    anchors.add(ceilUtc(tier, edge));
  }
  return [...anchors];
}

/** The positive cover of [from, to) (either order), or null when a block it needs is not kept. */
function tryCover(from: number, to: number, isKept: IsKept): SignedBlock[] | null {
  const [startMs, endMs] = from <= to ? [from, to] : [to, from];
  try {
    return coverInterval(startMs, endMs, isKept).map((b) => ({ ...b, sign: 1 }));
  } catch {
    return null;
  }
}

const negated = (blocks: readonly SignedBlock[]): SignedBlock[] =>
  blocks.map((b) => ({ ...b, sign: b.sign === 1 ? -1 : 1 }));

/**
 * The cheapest signed cover of [startMs, endMs): stored blocks, each added or subtracted, whose
 * sum is exactly that interval (sums and counts are exact integers, so subtracting is exact).
 * A Berlin day is the UTC day, plus the previous day's 23:00 hour, minus that day's 23:00 hour:
 * three blocks instead of 24.
 *
 * Candidates: the positive cover (coverInterval), and every cover of [a, b) between anchors a and
 * b near the edges (the edge, or an hour/day/week/month edge before or after it), corrected by the
 * pieces between each anchor and its edge: a piece outside the interval is subtracted, one inside
 * added. The cost is the number of blocks read; on a tie the positive cover wins.
 */
export function coverSigned(startMs: number, endMs: number, isKept: IsKept): SignedBlock[] {
  const positive = tryCover(startMs, endMs, isKept);
  if (positive === null) return coverInterval(startMs, endMs, isKept).map((b) => ({ ...b, sign: 1 }));
  // One or two blocks cannot be beaten: a single signed block would be a positive cover.
  if (positive.length <= 2) return positive;

  let best = positive;
  for (const a of anchorsOf(startMs)) {
    const head = tryCover(a, startMs, isKept);
    if (head === null || head.length >= best.length) continue;
    const headSigned = a < startMs ? negated(head) : head;
    for (const b of anchorsOf(endMs)) {
      if (b <= a) continue;
      const tail = tryCover(endMs, b, isKept);
      if (tail === null || head.length + tail.length >= best.length) continue;
      const middle = tryCover(a, b, isKept);
      if (middle === null) continue;
      const total = head.length + middle.length + tail.length;
      if (total < best.length) best = [...headSigned, ...middle, ...(b > endMs ? negated(tail) : tail)];
    }
  }
  return best;
}
