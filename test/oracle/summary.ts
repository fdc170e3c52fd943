import { firstAtOrAfter } from "./buckets";
import { compareCodePoints } from "./byteOrder";
import { previousOf, readCompare, relativeChangeOf, summaryChange } from "./compare";
import { isOnKeptGrid } from "./keptGrid";
import {
  type Approximate,
  addRecording,
  emptySums,
  percentileFields,
  type Rounded,
  type SummaryField,
  summaryMetrics,
} from "./metrics";
import {
  matchesAll,
  type QueryPairs,
  readActiveMembers,
  readFilters,
  readPairs,
  readPercentiles,
  SUMMARY_KEYS,
} from "./params";
import { ExpectedBadRequest, type OracleRange, resolveRange } from "./range";
import type { CountedRecording } from "./recordings";
import type { Answer, OracleOptions } from "./stats";

/**
 * The summary's fields in order: the seed's, then docs/contract.md §9's percentiles
 * (`p<q>_voice_processing_seconds`, `p<q>_llm_processing_seconds`, q ascending) and
 * `active_members` when asked.
 */
type SummaryFields = Record<SummaryField, Rounded> & { active_members?: Rounded } & {
  [field: `p${number}_${string}`]: Approximate;
};

export interface ExpectedSummary {
  status: 200;
  metrics: SummaryFields;
  /** docs/contract.md §7 `compare`: the previous range's fields and each field's change. */
  previous?: SummaryFields;
  change?: Record<string, Rounded | null>;
}

/** `GET /api/v1/stats/summary`: the same range rules, one interval, minutes and seconds. */
export function answerSummary(
  recordings: readonly CountedRecording[],
  pairs: QueryPairs,
  options: OracleOptions,
): Answer<ExpectedSummary> {
  try {
    const params = readPairs(pairs, SUMMARY_KEYS);
    const filters = [...readFilters(params), ...readFilters(params, "exclude")];
    const compare = readCompare(params);
    const activeMembers = readActiveMembers(params);
    const percentiles = readPercentiles(params);
    const range = resolveRange(Object.fromEntries(params), options.nowMs);
    const before = compare === undefined ? undefined : previousOf(compare, range);
    const edges = [range.startMs, range.endMs, ...(before ? [before.startMs, before.endMs] : [])];
    const edge = edges.find((t) => !isOnKeptGrid(t, options.nowMs));
    if (edge !== undefined) return { status: "not-comparable", edge };
    const sumOver = (r: OracleRange) => {
      const sums = emptySums();
      const members = new Set<string>();
      const times = { voice: [] as number[], llm: [] as number[] };
      for (let i = firstAtOrAfter(recordings, r.startMs); i < recordings.length; i++) {
        const rec = recordings[i] as CountedRecording;
        if (rec.atMs >= r.endMs) break;
        if (!matchesAll(rec, filters)) continue;
        addRecording(sums, rec);
        members.add(rec.member_email);
        if (rec.voice_processing_ms !== null) times.voice.push(rec.voice_processing_ms);
        if (rec.llm_processing_ms !== null) times.llm.push(rec.llm_processing_ms);
      }
      return { sums, members: members.size, times };
    };
    // docs/contract.md §9: the percentiles asked (of the range only, never in previous or change),
    // then the range's distinct members, last, when asked.
    const fieldsOf = (t: ReturnType<typeof sumOver>, asked: readonly number[]): SummaryFields => ({
      ...summaryMetrics(t.sums),
      ...percentileFields(t.times, asked, "seconds"),
      ...(activeMembers && { active_members: { value: t.members } }),
    });
    const current = sumOver(range);
    if (before === undefined) return { status: 200, metrics: fieldsOf(current, percentiles) };
    const previous = sumOver(before);
    const change = summaryChange(current.sums, previous.sums);
    if (activeMembers) change.active_members = relativeChangeOf(current.members, previous.members);
    return { status: 200, metrics: fieldsOf(current, percentiles), previous: fieldsOf(previous, []), change };
  } catch (error) {
    if (error instanceof ExpectedBadRequest) return { status: 400, parameter: error.parameter };
    throw error;
  }
}

export interface ExpectedDimensions {
  voice_models: string[];
  language_models: string[];
  app_names: string[];
}

/** `GET /api/v1/stats/dimensions`: every value ever counted for the organization, no null. */
export function answerDimensions(recordings: readonly CountedRecording[]): ExpectedDimensions {
  const sorted = (values: Iterable<string | null>) =>
    [...new Set(values)].filter((v): v is string => v !== null).sort(compareCodePoints);
  return {
    voice_models: sorted(recordings.map((r) => r.voice_model)),
    language_models: sorted(recordings.map((r) => r.language_model)),
    app_names: sorted(recordings.map((r) => r.app_name)),
  };
}
