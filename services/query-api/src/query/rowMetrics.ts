import type { Dimension } from "@vu/events";
import type { Sums } from "@vu/store";

/**
 * numerator ÷ denominator rounded half up to 3 decimal places (CONTRACT §2), exactly: every metric
 * is a ratio of integer sums, so it is rounded on the integers (floor((2000·n + d) / 2d) / 1000)
 * rather than on a float quotient, where 0.0005 and 0.5005 would round differently. 0 when the
 * denominator is 0 (SQL AVG over no values, wpm over no duration).
 */
export function ratio3(numerator: bigint, denominator: bigint): number {
  if (denominator === 0n) return 0;
  return Number((2000n * numerator + denominator) / (2n * denominator)) / 1000;
}

const big = BigInt;

/** The metric columns of a `/stats` row, in the order of CONTRACT §5 (JSON fields, CSV columns). */
export const STATS_METRIC_COLUMNS = [
  "recording_count",
  "total_words",
  "total_duration",
  "avg_llm_processing_time",
  "avg_voice_processing_time",
  "avg_wpm",
] as const;

export interface StatsRow {
  time_bucket: string;
  recording_count: number;
  total_words: number;
  total_duration: number;
  avg_llm_processing_time: number;
  avg_voice_processing_time: number;
  avg_wpm: number;
  [dimension: string]: string | number | null;
}

export interface Summary {
  total_recordings: number;
  total_duration_minutes: number;
  total_words: number;
  avg_llm_processing_seconds: number;
  avg_voice_processing_seconds: number;
}

/** A statistics row (milliseconds), with the group field right after `time_bucket` when grouped. */
export function toStatsRow(
  timeBucket: string,
  sums: Sums,
  group?: { dimension: Dimension; value: string | null },
): StatsRow {
  const row: StatsRow = { time_bucket: timeBucket } as StatsRow;
  if (group) row[group.dimension] = group.value;
  row.recording_count = sums.count;
  row.total_words = sums.words;
  row.total_duration = sums.durationMs;
  row.avg_llm_processing_time = ratio3(big(sums.llmMsSum), big(sums.llmMsCount));
  row.avg_voice_processing_time = ratio3(big(sums.voiceMsSum), big(sums.voiceMsCount));
  // words ÷ (duration / 60000) = words · 60000 ÷ duration
  row.avg_wpm = ratio3(big(sums.words) * 60_000n, big(sums.durationMs));
  return row;
}

/** The summary object: minutes and seconds, unlike the rows (the seed's note on units). */
export function toSummary(sums: Sums): Summary {
  return {
    total_recordings: sums.count,
    total_duration_minutes: ratio3(big(sums.durationMs), 60_000n),
    total_words: sums.words,
    avg_llm_processing_seconds: ratio3(big(sums.llmMsSum), big(sums.llmMsCount) * 1000n),
    avg_voice_processing_seconds: ratio3(big(sums.voiceMsSum), big(sums.voiceMsCount) * 1000n),
  };
}
