import { recording } from "@vu/testkit";
import { type ApiServer, startApiServer } from "@vu/testkit/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// docs/contract.md §7 on /stats/summary over HTTP: what the differential suite (test/exactness)
// does not look at: the 400s' wording and that the seed's answer keeps its shape.
const now = Date.parse("2026-11-22T12:00:00Z");
let api: ApiServer;
let token: string;

beforeAll(async () => {
  api = await startApiServer({ nowMs: now, resultCacheRows: 10_000 });
  token = await api.createToken("summary-beyond-seed");
  await api.write("summary-beyond-seed", [
    recording("r1", "2026-11-02T09:15:00Z", { app_name: "Zoom", word_count: 100 }),
    recording("r2", "2026-11-02T10:00:00Z", { app_name: "Slack", word_count: 300 }),
    recording("r3", "2026-11-03T11:00:00Z", { app_name: "Teams", language_model: null, word_count: 50 }),
    // The period before 2026-11-01..05 (2026-10-27..31) and the same days of 2025.
    recording("p1", "2026-10-28T09:00:00Z", { app_name: "Zoom", word_count: 600, llm_processing_ms: null }),
    recording("y1", "2025-11-03T09:00:00Z", { app_name: "Zoom", word_count: 450 }),
  ]);
});
afterAll(() => api.close());

const range = "start_date=2026-11-01&end_date=2026-11-05";
const get = async (query: string) => {
  const res = await api.get(`/api/v1/stats/summary?${range}&${query}`, token);
  return { status: res.status, type: res.headers.get("content-type"), text: await res.text(), res };
};
const json = async (query: string) => {
  const reply = await get(query);
  expect(reply.status, reply.text).toBe(200);
  return JSON.parse(reply.text);
};

describe("GET /api/v1/stats/summary with docs/contract.md §7's parameters", () => {
  it.each([
    ["exclude[team]=x", "exclude[team]", /unknown parameter/],
    ["exclude[app_name]=Zoom&exclude[app_name]=Slack", "exclude[app_name]", /at most once/],
    ["compare=previous_month", "compare", /"previous_period"\|"previous_year"/],
    ["compare=", "compare", /"previous_period"\|"previous_year"/],
  ])("refuses %s with a 400 naming %s", async (query, parameter, message) => {
    const reply = await get(query);
    expect(reply.status).toBe(400);
    expect(reply.type).toMatch(/^application\/problem\+json/);
    const errors = JSON.parse(reply.text).errors as Array<{ parameter: string; message: string }>;
    expect(errors).toEqual([{ parameter, message: expect.stringMatching(message) }]);
  });

  it("exclude[...] leaves out the values named, ANDed with the filters, null as in filters", async () => {
    expect((await json("exclude[app_name]=Zoom")).total_words).toBe(350);
    expect((await json("exclude[app_name]=Zoom&filter[app_name]=Zoom,Slack")).total_words).toBe(300);
    expect((await json("exclude[language_model]=null")).total_words).toBe(400);
    // A list left empty excludes nothing, and the answer keeps the seed's five fields.
    const all = await json("exclude[app_name]=%20,%20");
    expect(all.total_words).toBe(450);
    expect(all.previous).toBeUndefined();
    expect(Object.keys(all)).toEqual([
      "total_recordings",
      "total_duration_minutes",
      "total_words",
      "avg_llm_processing_seconds",
      "avg_voice_processing_seconds",
    ]);
  });

  it("compare adds previous (the same fields) and change (relative, null where the previous value is 0)", async () => {
    const period = await json("compare=previous_period");
    expect(Object.keys(period)).toEqual([
      "total_recordings",
      "total_duration_minutes",
      "total_words",
      "avg_llm_processing_seconds",
      "avg_voice_processing_seconds",
      "previous",
      "change",
    ]);
    expect(period.previous).toMatchObject({
      total_recordings: 1,
      total_words: 600,
      avg_llm_processing_seconds: 0,
    });
    // 3 recordings against 1: +200 %; 450 words against 600: −25 %; no LLM time before: null.
    expect(period.change).toMatchObject({
      total_recordings: 2,
      total_words: -0.25,
      avg_llm_processing_seconds: null,
    });
    const year = await json("compare=previous_year&exclude[app_name]=Teams");
    expect(year.previous).toMatchObject({ total_recordings: 1, total_words: 450 });
    expect(year.change).toMatchObject({ total_recordings: 1, total_words: -0.111 });
  });
});
