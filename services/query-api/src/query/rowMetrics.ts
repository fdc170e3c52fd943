import type { Dimension } from "@vu/events";
import type { Sums } from "@vu/store";

/** CONTRACT §2: non-integer values are rounded to 3 decimal places. */
export function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** SQL AVG semantics: the mean over non-null values, 0 when there are none. */
function mean(sum: number, count: number): number {
  return count === 0 ? 0 : sum / count;
}

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
  row.avg_llm_processing_time = round3(mean(sums.llmMsSum, sums.llmMsCount));
  row.avg_voice_processing_time = round3(mean(sums.voiceMsSum, sums.voiceMsCount));
  row.avg_wpm = sums.durationMs === 0 ? 0 : round3(sums.words / (sums.durationMs / 60_000));
  return row;
}

/** The summary object: minutes and seconds, unlike the rows (the seed's note on units). */
export function toSummary(sums: Sums): Summary {
  return {
    total_recordings: sums.count,
    total_duration_minutes: round3(sums.durationMs / 60_000),
    total_words: sums.words,
    avg_llm_processing_seconds: round3(mean(sums.llmMsSum, sums.llmMsCount) / 1000),
    avg_voice_processing_seconds: round3(mean(sums.voiceMsSum, sums.voiceMsCount) / 1000),
  };
}
