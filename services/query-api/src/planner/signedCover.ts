import type { BlockRef } from "@vu/store";
import { ceilUtc, DAY_MS, floorUtc, type Tier } from "@vu/time-buckets";
import type { IsKept, SignedBlock } from "./block";
import { coverInterval } from "./blockCover";
import { coverWholeDays } from "./dayCover";

/** Intervals longer than this get the positive cover (the search covers the span several times). */
const MAX_SEARCHED_SPAN_MS = 366 * DAY_MS;

/** Tiers whose edges may serve as an anchor beyond an interval edge. */
const ANCHOR_TIERS: readonly Tier[] = ["quarter", "hour", "day", "week", "month"];

/**
 * Where a cover may start (or end) instead of the edge itself: the edge, or a coarser edge less
 * than `span` away (a correction longer than the interval itself never pays).
 */
function anchorsOf(edge: number, span: number): number[] {
  const anchors = new Set<number>([edge]);
  for (const tier of ANCHOR_TIERS) {
    for (const anchor of [floorUtc(tier, edge), ceilUtc(tier, edge)]) {
      if (Math.abs(anchor - edge) < span) anchors.add(anchor);
    }
  }
  return [...anchors];
}

/** The positive cover of [from, to) (either order), or null when a block it needs is not kept. */
function tryCover(from: number, to: number, isKept: IsKept): BlockRef[] | null {
  try {
    return from <= to ? coverInterval(from, to, isKept) : coverInterval(to, from, isKept);
  } catch {
    return null;
  }
}

const signed = (blocks: readonly BlockRef[], sign: 1 | -1): SignedBlock[] =>
  blocks.map((b) => ({ ...b, sign }));

/**
 * One end of a candidate: the anchor, the correction between it and the interval's edge (added
 * when inside the interval, subtracted when outside), and the sub-day stretch from the anchor to the
 * nearest day edge on the interval's side, after which whole days take over.
 */
interface Side {
  dayEdge: number;
  blocks: SignedBlock[];
}

function startSide(startMs: number, a: number, isKept: IsKept): Side | null {
  const correction = tryCover(a, startMs, isKept);
  const dayEdge = ceilUtc("day", a);
  const toDay = tryCover(a, dayEdge, isKept);
  if (correction === null || toDay === null) return null;
  return { dayEdge, blocks: [...signed(correction, a < startMs ? -1 : 1), ...signed(toDay, 1)] };
}

function endSide(endMs: number, b: number, isKept: IsKept): Side | null {
  const correction = tryCover(endMs, b, isKept);
  const dayEdge = floorUtc("day", b);
  const fromDay = tryCover(dayEdge, b, isKept);
  if (correction === null || fromDay === null) return null;
  return { dayEdge, blocks: [...signed(fromDay, 1), ...signed(correction, b > endMs ? -1 : 1)] };
}

/**
 * The cheapest signed cover of [startMs, endMs): stored blocks, each added or subtracted, whose
 * sum is exactly that interval (sums and counts are exact integers, so subtracting is exact).
 * A Berlin day is the UTC day, plus the previous day's 23:00 hour, minus that day's 23:00 hour:
 * three blocks instead of 24.
 *
 * A candidate starts at an anchor a near the start and ends at an anchor b near the end (the edge
 * itself, or a quarter-hour, hour, day, week or month edge less than the interval's length away),
 * corrected by the stretch between each anchor and its edge. The positive cover of [a, b) is
 * sub-day blocks up to a's next day edge, whole days, and sub-day blocks from b's day edge, so the
 * two ends are chosen independently and only the few distinct whole-day cores are covered: the
 * search costs about as much as two dozen covers of a day, not a hundred covers of the span.
 * The cost is the number of blocks read; on a tie the positive cover wins. Intervals shorter than
 * a day keep their positive cover.
 */
export function coverSigned(startMs: number, endMs: number, isKept: IsKept): SignedBlock[] {
  const positive = signed(coverInterval(startMs, endMs, isKept), 1);
  // One or two blocks cannot be beaten: a single signed block would be a positive cover. Below a
  // day the gain is at most a block (a Kathmandu hour: 3 instead of 4), not worth the search on
  // every hourly bucket; past a year the edges save a few of a dozen or more.
  const span = endMs - startMs;
  if (positive.length <= 2 || span < DAY_MS || span > MAX_SEARCHED_SPAN_MS) return positive;

  const starts = anchorsOf(startMs, span).flatMap((a) => startSide(startMs, a, isKept) ?? []);
  const ends = anchorsOf(endMs, span).flatMap((b) => endSide(endMs, b, isKept) ?? []);
  const cores = new Map<string, BlockRef[] | null>();
  const coreOf = (from: number, to: number) => {
    const key = `${from}:${to}`;
    if (!cores.has(key)) {
      let core: BlockRef[] | null;
      try {
        core = coverWholeDays(from, to, isKept);
      } catch {
        core = null;
      }
      cores.set(key, core);
    }
    return cores.get(key) ?? null;
  };

  let best = positive;
  for (const start of starts) {
    for (const end of ends) {
      if (start.blocks.length + end.blocks.length >= best.length || start.dayEdge > end.dayEdge) continue;
      const core = coreOf(start.dayEdge, end.dayEdge);
      if (core === null || start.blocks.length + core.length + end.blocks.length >= best.length) continue;
      best = [...start.blocks, ...signed(core, 1), ...end.blocks];
    }
  }
  return best;
}
