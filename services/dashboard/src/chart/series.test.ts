import { describe, expect, it } from "vitest";
import type { StatsRow } from "../api/types";
import { buildSeries, OTHER, stackValues } from "./series";

const row = (time_bucket: string, patch: Partial<StatsRow> = {}): StatsRow => ({
  time_bucket,
  recording_count: 1,
  total_words: 100,
  total_duration: 60_000,
  avg_llm_processing_time: 0,
  avg_voice_processing_time: 0,
  avg_wpm: 100,
  ...patch,
});
const D1 = "2026-03-28T00:00:00.000+01:00";
const D2 = "2026-03-29T00:00:00.000+01:00";
const sec = (iso: string) => Date.parse(iso) / 1000;

describe("buildSeries", () => {
  it("gives one series when ungrouped, minutes derived from exact milliseconds", () => {
    const data = buildSeries({
      rows: [row(D1, { total_duration: 90_000 }), row(D2, { total_duration: 30_000 })],
      groupBy: [],
      metric: "minutes",
    });
    expect(data).toEqual({
      x: [sec(D1), sec(D2)],
      series: [{ key: [], label: "Minutes", values: [1.5, 0.5], total: 2 }],
      otherGroups: 0,
      stillCounting: [false, false],
    });
  });

  it("marks a bucket still counting when a row of it says complete: false (docs/contract.md §9)", () => {
    const rows = [
      row(D1, { app_name: "Zoom", complete: true }),
      row(D2, { app_name: "Zoom", complete: true }),
      row(D2, { app_name: "Slack", complete: false }),
    ];
    expect(buildSeries({ rows, groupBy: ["app_name"], metric: "recordings" }).stillCounting).toEqual([
      false,
      true,
    ]);
  });

  it("plots the zero rows of fill=zero, and a group missing from a bucket as zero there", () => {
    const D3 = "2026-03-30T00:00:00.000+02:00";
    const rows = [
      row(D1, { app_name: "Zoom", recording_count: 0 }),
      row(D2, { app_name: "Zoom", recording_count: 4 }),
      row(D2, { app_name: "Slack", recording_count: 1 }),
      row(D3, { app_name: "Zoom", recording_count: 0 }),
    ];
    const data = buildSeries({ rows, groupBy: ["app_name"], metric: "recordings" });
    expect(data.x).toEqual([D1, D2, D3].map(sec));
    expect(data.series.map((s) => [s.key, s.values])).toEqual([
      [["Zoom"], [0, 4, 0]],
      [["Slack"], [0, 1, 0]],
    ]);
  });

  it("groups by two dimensions: one series per combination, labelled in the order grouped", () => {
    const rows = [
      row(D1, { app_name: "Zoom", language_model: null, recording_count: 3 }),
      row(D1, { app_name: "Zoom", language_model: "gpt", recording_count: 2 }),
      row(D2, { app_name: "Slack", language_model: "gpt", recording_count: 2 }),
      row(D2, { app_name: "Zoom", language_model: null, recording_count: 1 }),
    ];
    const data = buildSeries({ rows, groupBy: ["app_name", "language_model"], metric: "recordings" });
    expect(data.series.map((s) => [s.key, s.label, s.values])).toEqual([
      [["Zoom", null], "Zoom · (no language model)", [3, 1]],
      // Equal totals: the API's order, byte order of the first dimension, then the second.
      [["Slack", "gpt"], "Slack · gpt", [0, 2]],
      [["Zoom", "gpt"], "Zoom · gpt", [2, 0]],
    ]);
  });

  it("ranks groups by the plotted metric, ties in byte order with null last, and sums the rest as Other", () => {
    const rows = [
      row(D1, { language_model: "b", recording_count: 5 }),
      row(D1, { language_model: "a", recording_count: 5 }),
      row(D1, { language_model: null, recording_count: 5 }),
      row(D1, { language_model: "small1", recording_count: 1 }),
      row(D2, { language_model: "small2", recording_count: 2 }),
      row(D2, { language_model: "a", recording_count: 7 }),
    ];
    const data = buildSeries({ rows, groupBy: ["language_model"], metric: "recordings", topGroups: 3 });
    expect(data.series.map((s) => [s.key, s.label, s.values, s.total])).toEqual([
      [["a"], "a", [5, 7], 12],
      [["b"], "b", [5, 0], 5],
      [[null], "(no language model)", [5, 0], 5],
      [OTHER, "Other (2 groups)", [1, 2], 3],
    ]);
    expect(data.otherGroups).toBe(2);
    // The stack's top equals the ungrouped total in every bucket.
    const ungrouped = buildSeries({ rows, groupBy: [], metric: "recordings" });
    expect(stackValues(data.series.map((s) => s.values)).at(-1)).toEqual(ungrouped.series[0]?.values);
  });

  it("ranks by the metric shown: the group with most words is not the one with most recordings", () => {
    const rows = [
      row(D1, { app_name: "Zoom", recording_count: 10, total_words: 10 }),
      row(D1, { app_name: "Slack", recording_count: 1, total_words: 5_000 }),
    ];
    const byWords = buildSeries({ rows, groupBy: ["app_name"], metric: "words" });
    expect(byWords.series.map((s) => s.key)).toEqual([["Slack"], ["Zoom"]]);
    const byCount = buildSeries({ rows, groupBy: ["app_name"], metric: "recordings" });
    expect(byCount.series.map((s) => s.key)).toEqual([["Zoom"], ["Slack"]]);
  });

  it("keeps every group in its own colour up to the palette's size", () => {
    const rows = Array.from({ length: 7 }, (_, i) => row(D1, { app_name: `app${i}` }));
    expect(buildSeries({ rows, groupBy: ["app_name"], metric: "recordings" }).otherGroups).toBe(0);
    rows.push(row(D1, { app_name: "app7" }));
    expect(buildSeries({ rows, groupBy: ["app_name"], metric: "recordings" }).otherGroups).toBe(1);
  });
});
