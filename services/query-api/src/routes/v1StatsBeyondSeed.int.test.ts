import { recording } from "@vu/testkit";
import { type ApiServer, startApiServer } from "@vu/testkit/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// docs/contract.md §7 on /stats over HTTP: what the differential suite (test/exactness) does not
// look at: the 400s' wording, CSV columns, paging and kept answers of shaped queries.
const now = Date.parse("2026-11-22T12:00:00Z");
let api: ApiServer;
let token: string;

beforeAll(async () => {
  api = await startApiServer({ nowMs: now, resultCacheRows: 10_000 });
  token = await api.createToken("acme");
  await api.write("acme", [
    recording("r1", "2026-11-02T09:15:00Z", { app_name: "Zoom", word_count: 100 }),
    recording("r2", "2026-11-02T10:00:00Z", { app_name: "Slack", voice_model: "nova", word_count: 300 }),
    recording("r3", "2026-11-02T11:00:00Z", {
      app_name: "Teams",
      language_model: null,
      llm_processing_ms: null,
    }),
    recording("r4", "2026-11-04T10:00:00Z", { app_name: "Zoom", member_email: "bob@example.com" }),
  ]);
});
afterAll(() => api.close());

const range = "start_date=2026-11-01&end_date=2026-11-05";
const get = async (query: string) => {
  const res = await api.get(`/api/v1/stats?${range}&${query}`, token);
  return { status: res.status, type: res.headers.get("content-type"), text: await res.text(), res };
};
const json = async (query: string) => {
  const reply = await get(query);
  expect(reply.status, reply.text).toBe(200);
  return JSON.parse(reply.text);
};

describe("GET /api/v1/stats with docs/contract.md §7's parameters", () => {
  it.each([
    ["group_by=app_name,team", "group_by", /"team" is not one/],
    ["group_by=app_name,app_name", "group_by", /twice/],
    ["group_by=", "group_by", /is not one/],
    ["granularity=decade", "granularity", /"all"/],
    ["sort=words", "sort", /"words" is not a metric or a dimension/],
    ["sort=total_words,-total_words", "sort", /twice/],
    ["sort=app_name", "sort", /app_name is not a field of these rows/],
    ["limit=0", "limit", /at least 1/],
    ["limit=1001", "limit", /at most 1000/],
    ["limit=two", "limit", /whole number/],
    ["other=yes", "other", /"true"\|"false"/],
    ["other=true&group_by=app_name", "other", /needs limit/],
    ["other=true&limit=2", "other", /needs group_by/],
    ["fill=none", "fill", /"zero"/],
    ["exclude[team]=x", "exclude[team]", /unknown parameter/],
  ])("refuses %s with a 400 naming %s", async (query, parameter, message) => {
    const reply = await get(query);
    expect(reply.status).toBe(400);
    expect(reply.type).toMatch(/^application\/problem\+json/);
    const errors = JSON.parse(reply.text).errors as Array<{ parameter: string; message: string }>;
    expect(errors).toEqual([{ parameter, message: expect.stringMatching(message) }]);
  });

  it("groups by two dimensions with a field each, meta.group_by as asked, CSV columns only then", async () => {
    const body = await json("granularity=all&group_by=voice_model,app_name&exclude[app_name]=Teams");
    expect(body.meta).toMatchObject({ granularity: "all", group_by: "voice_model,app_name" });
    expect(body.data.map((r: Record<string, unknown>) => Object.keys(r).slice(0, 3))).toEqual([
      ["time_bucket", "voice_model", "app_name"],
      ["time_bucket", "voice_model", "app_name"],
    ]);
    expect(
      body.data.map((r: Record<string, unknown>) => [
        r.time_bucket,
        r.voice_model,
        r.app_name,
        r.recording_count,
      ]),
    ).toEqual([
      ["2026-11-01T00:00:00.000Z", "nova", "Slack", 1],
      ["2026-11-01T00:00:00.000Z", "whisper", "Zoom", 2],
    ]);
    const csv = await get("granularity=all&group_by=voice_model,app_name&format=csv");
    expect(csv.text.split("\r\n")[0]).toBe(
      "time_bucket,voice_model,app_name,recording_count,total_words,total_duration,avg_llm_processing_time,avg_voice_processing_time,avg_wpm",
    );
    const plain = await get("granularity=all&sort=-total_words&fill=zero&format=csv");
    expect(plain.text.split("\r\n")[0]?.startsWith("time_bucket,recording_count,")).toBe(true);
  });

  it("pages a shaped answer, and keeps answers that differ only in their shaping apart", async () => {
    const query = "group_by=app_name&fill=zero&sort=-recording_count,app_name&limit=2&other=true";
    const all = await json(`${query}&page_size=1000`);
    expect(
      all.data.map((r: Record<string, unknown>) => [
        String(r.time_bucket).slice(0, 10),
        r.app_name,
        r.recording_count,
      ]),
    ).toEqual([
      ["2026-11-01", "Slack", 0],
      ["2026-11-01", "Teams", 0],
      ["2026-11-01", "(other)", 0],
      ["2026-11-02", "Slack", 1],
      ["2026-11-02", "Teams", 1],
      ["2026-11-02", "(other)", 1],
      ["2026-11-03", "Slack", 0],
      ["2026-11-03", "Teams", 0],
      ["2026-11-03", "(other)", 0],
      ["2026-11-04", "Zoom", 1],
      ["2026-11-04", "Slack", 0],
      ["2026-11-04", "(other)", 0],
      ["2026-11-05", "Slack", 0],
      ["2026-11-05", "Teams", 0],
      ["2026-11-05", "(other)", 0],
    ]);
    const second = await json(`${query}&page=2&page_size=4`);
    expect(second.data).toEqual(all.data.slice(4, 8));
    expect(second.pagination).toEqual({ page: 2, page_size: 4, total_rows: 15, total_pages: 4, count: 4 });
    // The same query but ascending: a kept answer of the first must not be served for it.
    const ascending = await json(query.replace("-recording_count", "recording_count"));
    expect(ascending.data[3]).toMatchObject({ app_name: "Slack", recording_count: 1 });
    const again = await json(`${query}&page_size=1000`);
    expect(again).toEqual(all);
  });
});
