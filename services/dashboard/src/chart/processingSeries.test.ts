import { describe, expect, it } from "vitest";
import type { StatsRow } from "../api/types";
import { buildProcessingLines } from "./processingSeries";

const row = (time_bucket: string, patch: Partial<StatsRow> = {}): StatsRow => ({
  time_bucket,
  recording_count: 2,
  total_words: 100,
  total_duration: 60_000,
  avg_llm_processing_time: 800,
  avg_voice_processing_time: 1500,
  avg_wpm: 100,
  ...patch,
});
const D1 = "2026-03-28T00:00:00.000+01:00";
const D2 = "2026-03-29T00:00:00.000+01:00";
const sec = (iso: string) => Date.parse(iso) / 1000;

describe("buildProcessingLines", () => {
  it("draws each time's average and p95 beside it, in seconds, in time order", () => {
    const data = buildProcessingLines(
      [
        row(D2, { p95_voice_processing_time: 4000, p95_llm_processing_time: 2000, complete: false }),
        row(D1, { p95_voice_processing_time: 3000, p95_llm_processing_time: null }),
      ],
      true,
    );
    expect(data.x).toEqual([sec(D1), sec(D2)]);
    expect(data.stillCounting).toEqual([false, true]);
    expect(data.lines.map((l) => [l.field, l.label, l.time, l.kind, l.values])).toEqual([
      ["avg_voice_processing_time", "Avg voice", 0, "average", [1.5, 1.5]],
      ["p95_voice_processing_time", "p95 voice", 0, "percentile", [3, 4]],
      // No recording of D1 had a language model: its p95 is null, and its average a gap, not 0.
      ["avg_llm_processing_time", "Avg language model", 1, "average", [null, 0.8]],
      ["p95_llm_processing_time", "p95 language model", 1, "percentile", [null, 2]],
    ]);
  });

  it("draws averages only without the percentile, a bucket without recordings as a gap", () => {
    const data = buildProcessingLines(
      [row(D1), row(D2, { recording_count: 0, avg_voice_processing_time: 0, avg_llm_processing_time: 0 })],
      false,
    );
    expect(data.lines.map((l) => [l.field, l.values])).toEqual([
      ["avg_voice_processing_time", [1.5, null]],
      ["avg_llm_processing_time", [0.8, null]],
    ]);
  });
});
