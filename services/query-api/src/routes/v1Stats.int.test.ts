import { recording } from "@vu/testkit";
import { type ApiServer, bodyOf, startApiServer } from "@vu/testkit/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const now = Date.parse("2026-11-22T12:00:00Z");
let api: ApiServer;
let token: string;

beforeAll(async () => {
  api = await startApiServer({ nowMs: now });
  token = await api.createToken("acme");
  await api.write("acme", [
    recording("r1", "2026-11-02T09:15:00Z", { app_name: "Zoom", word_count: 100, duration_ms: 60_000 }),
    recording("r2", "2026-11-02T23:30:00Z", {
      app_name: "=SUM(1)",
      language_model: null,
      llm_processing_ms: null,
    }),
    recording("r3", "2026-11-03T10:00:00Z", { member_email: "bob@example.com", voice_processing_ms: null }),
    recording("r4", "2026-11-10T10:00:00Z", { app_name: 'Ärzte, "Büro"', duration_ms: 0, word_count: 0 }),
  ]);
});
afterAll(() => api.close());

const json = async (path: string) => {
  const res = await api.get(path, token);
  expect(res.status).toBe(200);
  return bodyOf(res);
};

describe("GET /api/v1/stats", () => {
  it("answers days by default with the seed's fields, pagination and meta", async () => {
    const body = await json("/api/v1/stats?start_date=2026-11-01&end_date=2026-11-30");
    expect(body.meta).toEqual({
      start_date: "2026-11-01T00:00:00.000Z",
      end_date: "2026-12-01T00:00:00.000Z",
      granularity: "day",
      group_by: null,
      timezone: "UTC",
    });
    expect(body.pagination).toEqual({ page: 1, page_size: 200, total_rows: 3, total_pages: 1, count: 3 });
    expect(body.data[0]).toEqual({
      time_bucket: "2026-11-02T00:00:00.000Z",
      recording_count: 2,
      total_words: 250,
      total_duration: 120_000,
      avg_llm_processing_time: 2000,
      avg_voice_processing_time: 1000,
      avg_wpm: 125,
    });
    expect(body.data.map((r: { time_bucket: string }) => r.time_bucket)).toEqual([
      "2026-11-02T00:00:00.000Z",
      "2026-11-03T00:00:00.000Z",
      "2026-11-10T00:00:00.000Z",
    ]);
    expect(body.data[2].avg_wpm).toBe(0);
  });

  it("cuts buckets in the query's zone", async () => {
    const body = await json("/api/v1/stats?start_date=2026-11-01&end_date=2026-11-03&timezone=Europe/Berlin");
    expect(body.meta.start_date).toBe("2026-11-01T00:00:00.000+01:00");
    expect(
      body.data.map((r: { time_bucket: string; recording_count: number }) => [
        r.time_bucket,
        r.recording_count,
      ]),
    ).toEqual([
      ["2026-11-02T00:00:00.000+01:00", 1],
      ["2026-11-03T00:00:00.000+01:00", 2],
    ]);
  });

  it("groups with one row per bucket and value, null last, and filters with AND across dimensions", async () => {
    const grouped = await json(
      "/api/v1/stats?start_date=2026-11-01&end_date=2026-11-30&granularity=month&group_by=language_model",
    );
    expect(grouped.meta.group_by).toBe("language_model");
    expect(
      grouped.data.map((r: { language_model: string | null; recording_count: number }) => [
        r.language_model,
        r.recording_count,
      ]),
    ).toEqual([
      ["gpt", 3],
      [null, 1],
    ]);
    const filtered = await json(
      "/api/v1/stats?start_date=2026-11-01&end_date=2026-11-30&granularity=week&filter[member_email]=ADA@example.com,%20&filter[language_model]=null,gpt&filter[app_name]=Zoom,=SUM(1)",
    );
    // 2026-11-02 is a Monday: r1 and r2 share its ISO week; r3 (bob) and r4 (another app) are filtered out.
    expect(
      filtered.data.map((r: { time_bucket: string; recording_count: number }) => [
        r.time_bucket,
        r.recording_count,
      ]),
    ).toEqual([["2026-11-02T00:00:00.000Z", 2]]);
  });

  it("pages rows and gives an empty page past the end", async () => {
    const page2 = await json("/api/v1/stats?start_date=2026-11-01&end_date=2026-11-30&page=2&page_size=2");
    expect(page2.pagination).toEqual({ page: 2, page_size: 2, total_rows: 3, total_pages: 2, count: 1 });
    const past = await json("/api/v1/stats?start_date=2026-11-01&end_date=2026-11-30&page=5&page_size=2");
    expect(past.data).toEqual([]);
    expect(past.pagination.count).toBe(0);
  });

  it("renders CSV with the contract's columns, headers, Link and formula guard", async () => {
    const res = await api.get(
      "/api/v1/stats?start_date=2026-11-01&end_date=2026-11-30&granularity=month&group_by=app_name&format=csv&page_size=2",
      token,
    );
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe(
      'attachment; filename="usage-stats_20261101T0000+0000_20261201T0000+0000.csv"',
    );
    expect(res.headers.get("x-total-rows")).toBe("3");
    expect(res.headers.get("x-total-pages")).toBe("2");
    expect(res.headers.get("x-page")).toBe("1");
    expect(res.headers.get("x-page-size")).toBe("2");
    expect(res.headers.get("link")).toMatch(/^<\/api\/v1\/stats\?.*page=2.*>; rel="next"$/);
    const lines = (await res.text()).trimEnd().split("\r\n");
    expect(lines).toEqual([
      "time_bucket,app_name,recording_count,total_words,total_duration,avg_llm_processing_time,avg_voice_processing_time,avg_wpm",
      "2026-11-01T00:00:00.000Z,'=SUM(1),1,150,60000,0,1000,150",
      "2026-11-01T00:00:00.000Z,Zoom,2,250,120000,2000,1000,125",
    ]);
    const last = await api.get(
      "/api/v1/stats?start_date=2026-11-01&end_date=2026-11-30&granularity=month&group_by=app_name&format=csv&page_size=2&page=2",
      token,
    );
    expect(last.headers.get("link")).toBeNull();
    expect(await last.text()).toContain('"Ärzte, ""Büro"""');
  });

  it("defaults to the last 7 days", async () => {
    const body = await json("/api/v1/stats");
    expect(body.meta.end_date).toBe("2026-11-22T12:00:00.000Z");
    expect(body.meta.start_date).toBe("2026-11-15T12:00:00.000Z");
    expect(body.data).toEqual([]);
  });
});

describe("GET /api/v1/stats/summary", () => {
  it("totals the range in minutes and seconds, with filters", async () => {
    expect(await json("/api/v1/stats/summary?start_date=2026-11-01&end_date=2026-11-30")).toEqual({
      total_recordings: 4,
      total_duration_minutes: 3,
      total_words: 400,
      avg_llm_processing_seconds: 2,
      avg_voice_processing_seconds: 1,
    });
    const bob = await json(
      "/api/v1/stats/summary?start_date=2026-11-01&end_date=2026-11-30&filter[member_email]=bob@example.com",
    );
    expect(bob.total_recordings).toBe(1);
    expect(bob.avg_voice_processing_seconds).toBe(0);
  });
});

describe("GET /api/v1/stats/dimensions", () => {
  it("lists distinct values ascending, without null", async () => {
    expect(await json("/api/v1/stats/dimensions")).toEqual({
      voice_models: ["whisper"],
      language_models: ["gpt"],
      app_names: ["=SUM(1)", "Zoom", 'Ärzte, "Büro"'],
    });
  });
});
