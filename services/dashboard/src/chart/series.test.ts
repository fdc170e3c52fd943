import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import type { StatsRow } from "../api/types";
import { bucketStarts, buildSeries, OTHER, stackValues } from "./series";

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
      groupBy: null,
      metric: "minutes",
    });
    expect(data).toEqual({
      x: [sec(D1), sec(D2)],
      series: [{ key: null, label: "Minutes", values: [1.5, 0.5], total: 2 }],
      otherGroups: 0,
    });
  });

  it("fills buckets without rows with zero", () => {
    const buckets = [D1, D2, "2026-03-30T00:00:00.000+02:00"].map(Date.parse);
    const data = buildSeries({
      rows: [row(D2, { recording_count: 4 })],
      groupBy: null,
      metric: "recordings",
      buckets,
    });
    expect(data.x).toEqual(buckets.map((ms) => ms / 1000));
    expect(data.series[0]?.values).toEqual([0, 4, 0]);
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
    const data = buildSeries({ rows, groupBy: "language_model", metric: "recordings", topGroups: 3 });
    expect(data.series.map((s) => [s.key, s.label, s.values, s.total])).toEqual([
      ["a", "a", [5, 7], 12],
      ["b", "b", [5, 0], 5],
      [null, "(no language model)", [5, 0], 5],
      [OTHER, "Other (2 groups)", [1, 2], 3],
    ]);
    expect(data.otherGroups).toBe(2);
    // The stack's top equals the ungrouped total in every bucket.
    const ungrouped = buildSeries({ rows, groupBy: null, metric: "recordings" });
    expect(stackValues(data.series.map((s) => s.values)).at(-1)).toEqual(ungrouped.series[0]?.values);
  });

  it("ranks by the metric shown: the group with most words is not the one with most recordings", () => {
    const rows = [
      row(D1, { app_name: "Zoom", recording_count: 10, total_words: 10 }),
      row(D1, { app_name: "Slack", recording_count: 1, total_words: 5_000 }),
    ];
    const byWords = buildSeries({ rows, groupBy: "app_name", metric: "words" });
    expect(byWords.series.map((s) => s.key)).toEqual(["Slack", "Zoom"]);
    const byCount = buildSeries({ rows, groupBy: "app_name", metric: "recordings" });
    expect(byCount.series.map((s) => s.key)).toEqual(["Zoom", "Slack"]);
  });

  it("keeps every group in its own colour up to the palette's size", () => {
    const rows = Array.from({ length: 7 }, (_, i) => row(D1, { app_name: `app${i}` }));
    expect(buildSeries({ rows, groupBy: "app_name", metric: "recordings" }).otherGroups).toBe(0);
    rows.push(row(D1, { app_name: "app7" }));
    expect(buildSeries({ rows, groupBy: "app_name", metric: "recordings" }).otherGroups).toBe(1);
  });
});

describe("bucketStarts", () => {
  const zoned = (iso: string, zone: string) => DateTime.fromISO(iso, { zone });
  const iso = (ms: number, zone: string) => DateTime.fromMillis(ms, { zone }).toISO();

  it("follows the zone's calendar across DST: hours and days", () => {
    const zone = "Europe/Berlin";
    const hours = bucketStarts(zoned("2026-03-29T01:00", zone), zoned("2026-03-29T04:00", zone), "hour");
    // 02:00 does not exist that night.
    expect(hours.map((ms) => iso(ms, zone))).toEqual([
      "2026-03-29T01:00:00.000+01:00",
      "2026-03-29T03:00:00.000+02:00",
    ]);
    const days = bucketStarts(zoned("2026-03-28T00:00", zone), zoned("2026-03-31T00:00", zone), "day");
    expect(days.map((ms) => iso(ms, zone))).toEqual([
      "2026-03-28T00:00:00.000+01:00",
      "2026-03-29T00:00:00.000+01:00",
      "2026-03-30T00:00:00.000+02:00",
    ]);
  });

  it("starts a partial first bucket at its calendar start: ISO weeks on Monday, months on the 1st", () => {
    const zone = "UTC";
    const weeks = bucketStarts(zoned("2026-04-01", zone), zoned("2026-04-15", zone), "week");
    expect(weeks.map((ms) => iso(ms, zone))).toEqual([
      "2026-03-30T00:00:00.000Z",
      "2026-04-06T00:00:00.000Z",
      "2026-04-13T00:00:00.000Z",
    ]);
    const months = bucketStarts(zoned("2026-01-15", zone), zoned("2026-03-01", zone), "month");
    expect(months.map((ms) => iso(ms, zone))).toEqual([
      "2026-01-01T00:00:00.000Z",
      "2026-02-01T00:00:00.000Z",
    ]);
  });
});
