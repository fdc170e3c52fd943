import type { CountedRecording } from "./recordings";

/** Exact integer sums of a set of recordings. */
export interface Sums {
  count: number;
  words: number;
  durationMs: number;
  voiceSum: number;
  voiceCount: number;
  llmSum: number;
  llmCount: number;
}

export const emptySums = (): Sums => ({
  count: 0,
  words: 0,
  durationMs: 0,
  voiceSum: 0,
  voiceCount: 0,
  llmSum: 0,
  llmCount: 0,
});

export function addRecording(sums: Sums, r: CountedRecording): void {
  sums.count += 1;
  sums.words += r.word_count;
  sums.durationMs += r.duration_ms;
  if (r.voice_processing_ms !== null) {
    sums.voiceSum += r.voice_processing_ms;
    sums.voiceCount += 1;
  }
  if (r.llm_processing_ms !== null) {
    sums.llmSum += r.llm_processing_ms;
    sums.llmCount += 1;
  }
}

/**
 * A value rounded to 3 decimals; `tie` is the lower candidate when the exact value is a half.
 * With `within` (docs/contract.md §9 percentiles), the exact value, which the answer may miss by
 * that share of it; `value` null: the answer must be null.
 */
export interface Rounded {
  value: number;
  tie?: number;
  within?: number;
}

/** docs/contract.md §9: a percentile is within 1 % (relative) of the exact one. */
export const PERCENTILE_BOUND = 0.01;
/** An expected percentile: the exact value within the bound, or null (no recording has the time). */
export type Approximate = { value: number; within: number } | { value: null };

/** The exact nearest-rank percentile q of `values`: the ⌈q/100 × n⌉-th smallest; null for none. */
export function nearestRankPercentile(values: readonly number[], q: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  // q × n / 100 of whole numbers: exact when whole, never rounded across a whole number otherwise.
  return sorted[Math.ceil((q * sorted.length) / 100) - 1] as number;
}

/** docs/contract.md §9 `percentiles`: the fields a row gains (ms), per q ascending, voice then LLM. */
export function percentileFields(
  times: { voice: readonly number[]; llm: readonly number[] },
  percentiles: readonly number[],
  unit: "time" | "seconds",
): Record<string, Approximate> {
  const fields: Record<string, Approximate> = {};
  for (const q of percentiles) {
    for (const time of ["voice", "llm"] as const) {
      const exact = nearestRankPercentile(times[time], q);
      fields[`p${q}_${time}_processing_${unit}`] =
        exact === null
          ? { value: null }
          : { value: unit === "seconds" ? exact / 1000 : exact, within: PERCENTILE_BOUND };
    }
  }
  return fields;
}

/**
 * numerator ÷ denominator rounded to 3 decimal places, exactly (BigInt), half up; 0 when the
 * denominator is 0 (an average over nothing, docs/contract.md §2). An exact half rounds up; `tie` then
 * names the value rounding down would give, for failure messages.
 */
export function round3(numerator: number, denominator: number): Rounded {
  if (denominator === 0) return { value: 0 };
  const n = BigInt(numerator) * 1000n;
  const d = BigInt(denominator);
  const q = n / d;
  const twiceRemainder = (n % d) * 2n;
  if (twiceRemainder < d) return { value: Number(q) / 1000 };
  if (twiceRemainder > d) return { value: Number(q + 1n) / 1000 };
  return { value: Number(q + 1n) / 1000, tie: Number(q) / 1000 };
}

export type RowMetric =
  | "avg_llm_processing_time"
  | "avg_voice_processing_time"
  | "avg_wpm"
  | "recording_count"
  | "total_words"
  | "total_duration";

/** The metric fields of a statistics row (milliseconds). */
export function rowMetrics(s: Sums): Record<RowMetric, Rounded> {
  return {
    recording_count: { value: s.count },
    total_words: { value: s.words },
    total_duration: { value: s.durationMs },
    avg_llm_processing_time: round3(s.llmSum, s.llmCount),
    avg_voice_processing_time: round3(s.voiceSum, s.voiceCount),
    // words ÷ (duration in minutes) = words × 60000 ÷ duration_ms
    avg_wpm: round3(s.words * 60_000, s.durationMs),
  };
}

export type SummaryField =
  | "total_recordings"
  | "total_duration_minutes"
  | "total_words"
  | "avg_llm_processing_seconds"
  | "avg_voice_processing_seconds";

/** The summary object (minutes and seconds). */
export function summaryMetrics(s: Sums): Record<SummaryField, Rounded> {
  return {
    total_recordings: { value: s.count },
    total_duration_minutes: round3(s.durationMs, 60_000),
    total_words: { value: s.words },
    avg_llm_processing_seconds: round3(s.llmSum, s.llmCount * 1000),
    avg_voice_processing_seconds: round3(s.voiceSum, s.voiceCount * 1000),
  };
}
