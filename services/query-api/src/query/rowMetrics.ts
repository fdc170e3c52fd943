import type { StatsMetricColumn, StatsRow, Summary } from "@vu/api-responses";
import type { Dimension } from "@vu/events";
import type { Sums } from "@vu/store";

/**
 * numerator ÷ denominator rounded half up to 3 decimal places (docs/contract.md §2), exactly: every metric
 * is a ratio of integer sums, so it is rounded on the integers (floor((2000·n + d) / 2d) / 1000)
 * rather than on a float quotient, where 0.0005 and 0.5005 would round differently. 0 when the
 * denominator is 0 (SQL AVG over no values, wpm over no duration).
 */
export function ratio3(numerator: bigint, denominator: bigint): number {
  if (denominator === 0n) return 0;
  return Number((2000n * numerator + denominator) / (2n * denominator)) / 1000;
}

const big = BigInt;

/** A row's metrics as published (milliseconds), in their published order. */
export function rowMetricValues(sums: Sums): Record<StatsMetricColumn, number> {
  return {
    recording_count: sums.count,
    total_words: sums.words,
    total_duration: sums.durationMs,
    avg_llm_processing_time: ratio3(big(sums.llmMsSum), big(sums.llmMsCount)),
    avg_voice_processing_time: ratio3(big(sums.voiceMsSum), big(sums.voiceMsCount)),
    // words ÷ (duration / 60000) = words · 60000 ÷ duration
    avg_wpm: ratio3(big(sums.words) * 60_000n, big(sums.durationMs)),
  };
}

/** A row's group: the `group_by` dimensions in the order asked, and a value for each. */
export interface RowGroup {
  dimensions: readonly Dimension[];
  values: ReadonlyArray<string | null>;
}

/** A statistics row (milliseconds), with the group fields right after `time_bucket` when grouped. */
export function toStatsRow(timeBucket: string, sums: Sums, group?: RowGroup): StatsRow {
  const row = { time_bucket: timeBucket } as Record<string, string | number | null>;
  // The group's fields right after time_bucket, in the order asked (JSON keeps insertion order);
  // only language_model can be null, which the store's combination values respect.
  group?.dimensions.forEach((dimension, i) => {
    row[dimension] = group.values[i] ?? null;
  });
  return Object.assign(row, rowMetricValues(sums)) as StatsRow;
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
