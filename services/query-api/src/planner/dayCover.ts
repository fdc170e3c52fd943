import type { BlockRef } from "@vu/store";
import { ceilUtc, DAY_MS, isAlignedUtc, nextUtc, type Tier } from "@vu/time-buckets";
import type { IsKept } from "./block";

/*
 * The fewest day, week and month blocks covering whole UTC days [startMs, endMs).
 *
 * Weeks and months do not nest, so "largest block first" is not minimal: Monday 2026-06-01 plus
 * five weeks is 5 week blocks, while June first needs June + 5 days. Instead this is a shortest
 * path over day boundaries, where from day d one may step a day, a week (d a Monday) or a month
 * (d the 1st), using only kept blocks.
 *
 * A boundary that is both a Monday and the 1st lies inside no block (weeks start on Mondays,
 * months on 1sts), so every cover passes through it: the path is solved separately between such
 * boundaries. Every year has a month starting on a Monday, so each piece spans at most ~14 months
 * and a summary over centuries costs linear time and little memory.
 */

const STEP_TIERS: readonly Tier[] = ["day", "week", "month"];
const UNREACHED = 0x7fffffff;

/** Day boundaries strictly inside the interval that every cover must pass through. */
function forcedCuts(startMs: number, endMs: number): number[] {
  const cuts: number[] = [];
  for (let m = ceilUtc("month", startMs + 1); m < endMs; m = nextUtc("month", m)) {
    if (isAlignedUtc("week", m)) cuts.push(m);
  }
  return cuts;
}

/** Shortest path over the day boundaries of one piece. */
function coverPiece(startMs: number, endMs: number, isKept: IsKept): BlockRef[] {
  const days = Math.round((endMs - startMs) / DAY_MS);
  const cost = new Int32Array(days + 1).fill(UNREACHED);
  const from = new Int32Array(days + 1);
  const via = new Uint8Array(days + 1);
  cost[0] = 0;
  let nextMonth = ceilUtc("month", startMs);

  for (let i = 0; i < days; i++) {
    const t = startMs + i * DAY_MS;
    const here = cost[i] ?? UNREACHED;
    const isFirst = t === nextMonth;
    if (isFirst) nextMonth = nextUtc("month", t);
    if (here === UNREACHED) continue;
    // Relaxed in a fixed order with a strict "<": on a tie the earliest predecessor (the larger
    // block) wins, which keeps the output deterministic.
    STEP_TIERS.forEach((tier, code) => {
      if (tier === "week" && !isAlignedUtc("week", t)) return;
      if (tier === "month" && !isFirst) return;
      const j = Math.round((nextUtc(tier, t) - startMs) / DAY_MS);
      if (j > days || !isKept(tier, t)) return;
      if (here + 1 < (cost[j] ?? UNREACHED)) {
        cost[j] = here + 1;
        from[j] = i;
        via[j] = code;
      }
    });
  }

  if (cost[days] === UNREACHED) {
    throw new Error(
      `cannot cover ${new Date(startMs).toISOString()}..${new Date(endMs).toISOString()} with kept day, week or month blocks`,
    );
  }
  const blocks: BlockRef[] = [];
  for (let j = days; j > 0; j = from[j] ?? 0) {
    const i = from[j] ?? 0;
    blocks.push({ tier: STEP_TIERS[via[j] ?? 0] ?? "day", startMs: startMs + i * DAY_MS });
  }
  return blocks.reverse();
}

/** The fewest kept day, week and month blocks whose union is exactly [startMs, endMs) (UTC days). */
export function coverWholeDays(startMs: number, endMs: number, isKept: IsKept): BlockRef[] {
  if (!isAlignedUtc("day", startMs) || !isAlignedUtc("day", endMs) || endMs < startMs) {
    throw new Error(`not an interval of whole UTC days: ${startMs}..${endMs}`);
  }
  const blocks: BlockRef[] = [];
  let pieceStart = startMs;
  for (const pieceEnd of [...forcedCuts(startMs, endMs), endMs]) {
    if (pieceEnd > pieceStart) blocks.push(...coverPiece(pieceStart, pieceEnd, isKept));
    pieceStart = pieceEnd;
  }
  return blocks;
}
