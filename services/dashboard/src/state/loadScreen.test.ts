import { describe, expect, it } from "vitest";
import { ApiError } from "../api/apiError";
import type { ApiClient } from "../api/client";
import type { StatsQuery, StatsRow, SummaryQuery } from "../api/types";
import { loadScreen } from "./loadScreen";
import { screenStateFromUrl } from "./screenState";

const row: StatsRow = {
  time_bucket: "2026-03-28T00:00:00.000Z",
  recording_count: 1,
  total_words: 100,
  total_duration: 60_000,
  avg_llm_processing_time: 800,
  avg_voice_processing_time: 1500,
  avg_wpm: 100,
};
const summary = {
  total_recordings: 1,
  total_duration_minutes: 1,
  total_words: 100,
  avg_voice_processing_seconds: 1.5,
  avg_llm_processing_seconds: 0.8,
};

/** An API that answers every query, and refuses `percentiles` as one counted without sketches. */
function fakeApi(keepsSketches: boolean) {
  const asked: { path: string; query: StatsQuery | SummaryQuery }[] = [];
  const refuse = (query: { percentiles?: string }) => {
    if (query.percentiles !== undefined && !keepsSketches) {
      throw new ApiError(400, {
        status: 400,
        errors: [{ parameter: "percentiles", message: "counted without PERCENTILE_SKETCHES" }],
      });
    }
  };
  const api = {
    async summary(query: SummaryQuery) {
      asked.push({ path: "summary", query });
      refuse(query);
      const p95 = query.percentiles ? { p95_voice_processing_seconds: 3, p95_llm_processing_seconds: 2 } : {};
      return { summary: { ...summary, ...p95 }, dataAsOf: null };
    },
    async stats(query: StatsQuery) {
      asked.push({ path: "stats", query });
      refuse(query);
      const p95 = query.percentiles ? { p95_voice_processing_time: 3000, p95_llm_processing_time: 2000 } : {};
      return {
        data: [{ ...row, ...p95 }],
        pagination: { page: 1, page_size: 1000, total_rows: 1, total_pages: 1 },
        meta: {},
      };
    },
  } as unknown as ApiClient;
  return { api, asked };
}

const load = (api: ApiClient, url: string) =>
  loadScreen(
    api,
    screenStateFromUrl(url, "UTC"),
    Date.parse("2026-04-01T00:00:00Z"),
    new AbortController().signal,
  );

describe("loadScreen's percentile", () => {
  it("asks the cards and the ungrouped chart for p95, with no request of its own", async () => {
    const { api, asked } = fakeApi(true);
    const loaded = await load(api, "range=last_7_days&timezone=UTC");
    expect(loaded.percentileKept).toBe(true);
    expect(loaded.summary).toMatchObject({ p95_voice_processing_seconds: 3 });
    expect(loaded.processingRows).toBe(loaded.chartRows);
    expect(loaded.chartRows[0]).toMatchObject({ p95_voice_processing_time: 3000 });
    const withP95 = asked.filter((a) => a.query.percentiles === "95");
    expect(withP95.map((a) => [a.path, "fill" in a.query])).toEqual([
      ["summary", false],
      ["stats", true],
    ]);
    expect(asked).toHaveLength(5);
  });

  it("asks grouped views' processing time ungrouped, in one more request", async () => {
    const { api, asked } = fakeApi(true);
    const loaded = await load(api, "range=last_7_days&timezone=UTC&group_by=app_name");
    expect(loaded.percentileKept).toBe(true);
    const processing = asked.filter((a) => a.path === "stats" && a.query.percentiles === "95");
    expect(processing).toHaveLength(1);
    expect(processing[0]?.query).not.toHaveProperty("group_by");
    expect(processing[0]?.query).toMatchObject({ fill: "zero" });
    const chart = asked.filter((a) => a.path === "stats" && (a.query as StatsQuery).group_by === "app_name");
    expect(chart.some((a) => "percentiles" in a.query)).toBe(false);
    expect(asked).toHaveLength(6);
  });

  it("asks again without percentiles when the API refuses them, and shows the rest", async () => {
    const { api, asked } = fakeApi(false);
    const loaded = await load(api, "range=last_7_days&timezone=UTC");
    expect(loaded.percentileKept).toBe(false);
    expect(loaded.summary).toEqual(summary);
    expect(loaded.chartRows).toEqual([row]);
    // The refused two, then each again without.
    expect(asked.filter((a) => a.query.percentiles !== undefined)).toHaveLength(2);
    expect(asked).toHaveLength(7);
  });

  it("does not swallow another 400", async () => {
    const { api } = fakeApi(true);
    const failing = {
      ...api,
      summary: async () => {
        throw new ApiError(400, { status: 400, errors: [{ parameter: "timezone", message: "unknown" }] });
      },
    } as ApiClient;
    await expect(load(failing, "range=last_7_days&timezone=UTC")).rejects.toThrow(ApiError);
  });
});
