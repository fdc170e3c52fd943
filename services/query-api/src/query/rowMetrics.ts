import {
  ACTIVE_MEMBERS_FIELD,
  PERCENTILE_TIMES,
  PREVIOUS_ACTIVE_MEMBERS_FIELD,
  percentileRowField,
  percentileSummaryField,
  type StatsMetricColumn,
  type StatsRow,
  type SummaryChange,
  type SummaryFields,
} from "@vu/api-responses";
import type { Dimension } from "@vu/events";
import type { PercentileSketch, Sums } from "@vu/store";
import type { AggregatedRow, RowPercentiles } from "./rowTable";

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

/**
 * ratio3 of two sums (non-negative integers), in doubles while that is exact: when 2000·n + d
 * stays within 2^53 every step is an exact integer and the floor of the rounded quotient is the
 * floor of the exact one (a quotient off an integer lies at least 1/(2d) from it, more than its
 * rounding error), so the result is ratio3's to the bit. Larger sums go through BigInt.
 */
export function sumRatio3(numerator: number, denominator: number, scale = 1): number {
  const scaled = 2000 * scale * numerator + denominator;
  const exact =
    numerator >= 0 &&
    denominator >= 0 &&
    Number.isSafeInteger(numerator) &&
    Number.isSafeInteger(denominator) &&
    Number.isSafeInteger(scaled);
  if (!exact) return ratio3(big(numerator) * big(scale), big(denominator));
  return denominator === 0 ? 0 : Math.floor(scaled / (2 * denominator)) / 1000;
}

/** A row's metrics as published (milliseconds), in their published order. */
export function rowMetricValues(sums: Sums): Record<StatsMetricColumn, number> {
  return {
    recording_count: sums.count,
    total_words: sums.words,
    total_duration: sums.durationMs,
    avg_llm_processing_time: sumRatio3(sums.llmMsSum, sums.llmMsCount),
    avg_voice_processing_time: sumRatio3(sums.voiceMsSum, sums.voiceMsCount),
    // words ÷ (duration / 60000) = words · 60000 ÷ duration
    avg_wpm: sumRatio3(sums.words, sums.durationMs, 60_000),
  };
}

/** A row's group: the `group_by` dimensions in the order asked, and a value for each. */
export interface RowGroup {
  dimensions: readonly Dimension[];
  values: ReadonlyArray<string | null>;
}

/**
 * What a row may show beside its metrics: docs/contract.md §7 `compare`, §9 `include=active_members`
 * and `percentiles` (the values asked, resolved from the row's sketch: RowTable.withPercentilesOf).
 */
export type ShownExtras = Pick<
  AggregatedRow,
  "previous" | "activeMembers" | "previousActiveMembers" | "percentiles"
>;

/**
 * A percentile in milliseconds rounded to 1 µs (the sketch's own error is below 1 % by more than
 * that from 5 ms up, and below it the value comes back exact); null without values.
 */
const percentileMs = (value: number | null) =>
  value === null || Number.isNaN(value) ? null : Math.round(value * 1000) / 1000;

/** docs/contract.md §9 `percentiles`: a row's fields (ms), per percentile asked, voice then LLM. */
export function percentileRowValues({ asked, values }: RowPercentiles): Record<string, number | null> {
  const fields: Record<string, number | null> = {};
  let at = 0;
  for (const q of asked)
    for (const time of PERCENTILE_TIMES)
      fields[percentileRowField(q, time)] = percentileMs(values[at++] ?? null);
  return fields;
}

/** docs/contract.md §9 `percentiles`: the summary's fields (seconds, rounded to 1 µs). */
export function percentileSummaryValues(sketch: PercentileSketch, percentiles: readonly number[]) {
  const values: Record<string, number | null> = {};
  for (const q of percentiles)
    for (const time of PERCENTILE_TIMES) {
      const ms = percentileMs(sketch.percentile(time, q));
      values[percentileSummaryField(q, time)] = ms === null ? null : Math.round(ms * 1000) / 1e6;
    }
  return values;
}

/**
 * A statistics row (milliseconds), with the group fields right after `time_bucket` when grouped,
 * the percentiles asked after the metrics, then `active_members` when counted (docs/contract.md
 * §9), and with `previous`
 * (docs/contract.md §7 `compare`) a `previous_<metric>` for each of them after those.
 */
export function toStatsRow(
  timeBucket: string,
  sums: Sums,
  group?: RowGroup,
  { previous, activeMembers, previousActiveMembers, percentiles }: ShownExtras = {},
): StatsRow {
  const row = { time_bucket: timeBucket } as Record<string, string | number | boolean | null>;
  // The group's fields right after time_bucket, in the order asked (JSON keeps insertion order);
  // only language_model can be null, which the store's combination values respect.
  group?.dimensions.forEach((dimension, i) => {
    row[dimension] = group.values[i] ?? null;
  });
  Object.assign(row, rowMetricValues(sums));
  if (percentiles) Object.assign(row, percentileRowValues(percentiles));
  if (activeMembers !== undefined) row[ACTIVE_MEMBERS_FIELD] = activeMembers;
  if (previous) {
    for (const [metric, value] of Object.entries(rowMetricValues(previous)))
      row[`previous_${metric}`] = value;
    if (previousActiveMembers !== undefined) row[PREVIOUS_ACTIVE_MEMBERS_FIELD] = previousActiveMembers;
  }
  return row as StatsRow;
}

/** The summary's fields that derive from its sums: the seed's five (not docs/contract.md §9's). */
type SummedField = Exclude<keyof SummaryFields, typeof ACTIVE_MEMBERS_FIELD | `p${number}_${string}`>;

/** Each summary field as an exact fraction of integer sums: minutes and seconds, unlike the rows. */
const SUMMARY_FRACTIONS: Record<SummedField, (s: Sums) => readonly [bigint, bigint]> = {
  total_recordings: (s) => [big(s.count), 1n],
  total_duration_minutes: (s) => [big(s.durationMs), 60_000n],
  total_words: (s) => [big(s.words), 1n],
  avg_llm_processing_seconds: (s) => [big(s.llmMsSum), big(s.llmMsCount) * 1000n],
  avg_voice_processing_seconds: (s) => [big(s.voiceMsSum), big(s.voiceMsCount) * 1000n],
};
const SUMMARY_KEYS = Object.keys(SUMMARY_FRACTIONS) as SummedField[];

/**
 * The summary object (the seed's note on units); an average over nothing is 0 (§2). With
 * `percentiles` (docs/contract.md §9), those asked of the range's sketch after the seed's fields;
 * with `activeMembers`, `active_members` last.
 */
export function toSummary(
  sums: Sums,
  activeMembers?: number,
  percentiles?: { asked: readonly number[]; sketch: PercentileSketch },
): SummaryFields {
  const summary = Object.fromEntries(
    SUMMARY_KEYS.map((key) => [key, ratio3(...SUMMARY_FRACTIONS[key](sums))]),
  ) as SummaryFields;
  if (percentiles) Object.assign(summary, percentileSummaryValues(percentiles.sketch, percentiles.asked));
  if (activeMembers !== undefined) summary[ACTIVE_MEMBERS_FIELD] = activeMembers;
  return summary;
}

/** ratio3 for a signed numerator (positive denominator): halves round away from zero. */
function signedRatio3(numerator: bigint, denominator: bigint): number {
  const magnitude = ratio3(numerator < 0n ? -numerator : numerator, denominator);
  return numerator < 0n && magnitude !== 0 ? -magnitude : magnitude;
}

/**
 * (current − previous) ÷ previous of one exact fraction, rounded as §2; null when the previous
 * value is 0. A value over nothing (an average of no recordings) is 0, as shown.
 */
export function relativeChange(current: readonly [bigint, bigint], previous: readonly [bigint, bigint]) {
  const [pn, pd] = previous;
  if (pn === 0n || pd === 0n) return null;
  const [cn, cd] = current[1] === 0n ? [0n, 1n] : current;
  // cn/cd ÷ pn/pd − 1 = (cn·pd − pn·cd) ÷ (cd·pn); every sum is ≥ 0, so the denominator is > 0.
  return signedRatio3(cn * pd - pn * cd, cd * pn);
}

/**
 * docs/contract.md §7 `compare` on the summary: the relative change of each field; with
 * `activeMembers` (the range's and the previous range's, docs/contract.md §9), of that one too.
 */
export function summaryChange(
  current: Sums,
  previous: Sums,
  activeMembers?: { current: number; previous: number },
): SummaryChange {
  const change = Object.fromEntries(
    SUMMARY_KEYS.map((key) => [
      key,
      relativeChange(SUMMARY_FRACTIONS[key](current), SUMMARY_FRACTIONS[key](previous)),
    ]),
  ) as SummaryChange;
  if (activeMembers) {
    change[ACTIVE_MEMBERS_FIELD] = relativeChange(
      [big(activeMembers.current), 1n],
      [big(activeMembers.previous), 1n],
    );
  }
  return change;
}
