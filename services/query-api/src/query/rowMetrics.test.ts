import { describe, expect, it } from "vitest";
import { round3, toStatsRow, toSummary } from "./rowMetrics";

const sums = {
  count: 3,
  words: 250,
  durationMs: 90_000,
  voiceMsSum: 1000,
  voiceMsCount: 3,
  llmMsSum: 0,
  llmMsCount: 0,
};

describe("row metrics", () => {
  it("derives averages with SQL AVG semantics and words per minute, rounded to 3 places", () => {
    expect(toStatsRow("2026-11-01T00:00:00.000Z", sums)).toEqual({
      time_bucket: "2026-11-01T00:00:00.000Z",
      recording_count: 3,
      total_words: 250,
      total_duration: 90_000,
      avg_llm_processing_time: 0,
      avg_voice_processing_time: 333.333,
      avg_wpm: 166.667,
    });
  });

  it("puts the group field right after time_bucket and reports zero wpm for zero duration", () => {
    const row = toStatsRow("t", { ...sums, durationMs: 0 }, { dimension: "language_model", value: null });
    expect(Object.keys(row).slice(0, 2)).toEqual(["time_bucket", "language_model"]);
    expect(row.language_model).toBeNull();
    expect(row.avg_wpm).toBe(0);
  });

  it("reports the summary in minutes and seconds", () => {
    expect(toSummary(sums)).toEqual({
      total_recordings: 3,
      total_duration_minutes: 1.5,
      total_words: 250,
      avg_llm_processing_seconds: 0,
      avg_voice_processing_seconds: 0.333,
    });
    expect(round3(2 / 3)).toBe(0.667);
  });
});
