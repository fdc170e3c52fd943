import { DateTime, type Zone } from "luxon";
import { bucketIndex } from "./buckets";
import { MINUTE_MS, wallToInstant } from "./dates";
import type { Rounded, Sums } from "./metrics";
import { readEnum } from "./params";
import type { OracleRange } from "./range";

// docs/contract.md §7 `compare`, written from the contract alone: the previous range, how buckets
// pair up, and the summary's relative change.

export const COMPARE_KINDS = ["previous_period", "previous_year"] as const;
export type CompareKind = (typeof COMPARE_KINDS)[number];

export const readCompare = (params: Map<string, string>) => readEnum(params, "compare", COMPARE_KINDS);

const wallOf = (ms: number, zone: Zone) => ms + zone.offset(ms) * MINUTE_MS;

/** How an instant of the range moves back: on the zone's wall clock, read back by §2's rule. */
export function shiftOf(kind: CompareKind, range: OracleRange): (ms: number) => number {
  if (kind === "previous_period") {
    const length = wallOf(range.endMs, range.zone) - wallOf(range.startMs, range.zone);
    return (ms) => wallToInstant(wallOf(ms, range.zone) - length, range.zone);
  }
  return (ms) => {
    const wall = DateTime.fromMillis(wallOf(ms, range.zone), { zone: "utc" });
    const back = wall.set({ year: wall.year - 1, day: 1 });
    // The 29th of February a year back is the 28th.
    const day = Math.min(wall.day, back.daysInMonth ?? 28);
    return wallToInstant(back.set({ day }).toMillis(), range.zone);
  };
}

/** The previous range: ends where the range starts (period) or at its end a year back (year). */
export function previousOf(kind: CompareKind, range: OracleRange): OracleRange {
  const shift = shiftOf(kind, range);
  const end = kind === "previous_period" ? range.startMs : shift(range.endMs);
  const start = Math.min(shift(range.startMs), end);
  return {
    ...range,
    startMs: Math.floor(start / MINUTE_MS) * MINUTE_MS,
    endMs: Math.ceil(end / MINUTE_MS) * MINUTE_MS,
  };
}

/**
 * The previous bucket a bucket pairs with: the one holding the moment where the bucket starts
 * within the range, moved back, kept within the previous range; undefined when that is empty.
 */
export function pairedIndex(
  bucketStart: number,
  range: OracleRange,
  previous: OracleRange,
  previousStarts: readonly number[],
  shift: (ms: number) => number,
): number | undefined {
  if (previousStarts.length === 0) return undefined;
  const moved = shift(Math.max(bucketStart, range.startMs));
  return bucketIndex(previousStarts, Math.min(Math.max(moved, previous.startMs), previous.endMs - 1));
}

/** (current − previous) ÷ previous of two counts, as summaryChange rounds it; null when previous is 0. */
export function relativeChangeOf(current: number, previous: number): Rounded | null {
  if (previous === 0) return null;
  const numerator = BigInt(current - previous);
  const magnitude = roundBig(numerator < 0n ? -numerator : numerator, BigInt(previous));
  return numerator < 0n && magnitude.value !== 0
    ? { value: -magnitude.value, ...(magnitude.tie === undefined ? {} : { tie: -magnitude.tie }) }
    : magnitude;
}

/** A summary field as an exact fraction of the sums. */
const FRACTIONS: Record<string, (s: Sums) => [number, number]> = {
  total_recordings: (s) => [s.count, 1],
  total_duration_minutes: (s) => [s.durationMs, 60_000],
  total_words: (s) => [s.words, 1],
  avg_llm_processing_seconds: (s) => [s.llmSum, s.llmCount * 1000],
  avg_voice_processing_seconds: (s) => [s.voiceSum, s.voiceCount * 1000],
};

/**
 * (current − previous) ÷ previous for each summary field, exactly (BigInt), rounded to 3 decimals
 * with halves away from zero; null where the previous value is 0 (an average over nothing is 0).
 */
export function summaryChange(current: Sums, previous: Sums): Record<string, Rounded | null> {
  const change: Record<string, Rounded | null> = {};
  for (const [field, fraction] of Object.entries(FRACTIONS)) {
    const [cn, cd] = fraction(current).map(BigInt) as [bigint, bigint];
    const [pn, pd] = fraction(previous).map(BigInt) as [bigint, bigint];
    if (pn === 0n || pd === 0n) {
      change[field] = null;
      continue;
    }
    // An average over nothing counts as 0.
    const [n, d] = cd === 0n ? [0n, 1n] : [cn, cd];
    // n/d ÷ pn/pd − 1
    const numerator = n * pd - pn * d;
    const denominator = d * pn;
    const magnitude = roundBig(numerator < 0n ? -numerator : numerator, denominator);
    change[field] =
      numerator < 0n && magnitude.value !== 0
        ? { value: -magnitude.value, ...(magnitude.tie === undefined ? {} : { tie: -magnitude.tie }) }
        : magnitude;
  }
  return change;
}

/** n ÷ d (n ≥ 0, d > 0) to 3 decimals, an exact half rounded up (away from zero). */
function roundBig(n: bigint, d: bigint): Rounded {
  const q = (n * 1000n) / d;
  const twice = ((n * 1000n) % d) * 2n;
  if (twice < d) return { value: Number(q) / 1000 };
  if (twice > d) return { value: Number(q + 1n) / 1000 };
  return { value: Number(q + 1n) / 1000, tie: Number(q) / 1000 };
}
