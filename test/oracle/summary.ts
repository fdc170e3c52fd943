import { firstAtOrAfter } from "./buckets";
import { compareCodePoints } from "./byteOrder";
import { isOnKeptGrid } from "./keptGrid";
import { addRecording, emptySums, type Rounded, type SummaryField, summaryMetrics } from "./metrics";
import { matchesAll, type QueryPairs, readFilters, readPairs, SUMMARY_KEYS } from "./params";
import { ExpectedBadRequest, resolveRange } from "./range";
import type { CountedRecording } from "./recordings";
import type { Answer, OracleOptions } from "./stats";

export interface ExpectedSummary {
  status: 200;
  metrics: Record<SummaryField, Rounded>;
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
    const range = resolveRange(Object.fromEntries(params), options.nowMs);
    const edge = [range.startMs, range.endMs].find((t) => !isOnKeptGrid(t, options.nowMs));
    if (edge !== undefined) return { status: "not-comparable", edge };
    const sums = emptySums();
    for (let i = firstAtOrAfter(recordings, range.startMs); i < recordings.length; i++) {
      const r = recordings[i] as CountedRecording;
      if (r.atMs >= range.endMs) break;
      if (matchesAll(r, filters)) addRecording(sums, r);
    }
    return { status: 200, metrics: summaryMetrics(sums) };
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
