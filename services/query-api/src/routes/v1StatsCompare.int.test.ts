import { recording } from "@vu/testkit";
import { type ApiServer, startApiServer } from "@vu/testkit/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// docs/contract.md §7 `compare` on /stats over HTTP: the members and columns it adds, the 400,
// and the (other) row's previous values; the differential suite checks the numbers at large.
const now = Date.parse("2026-11-22T12:00:00Z");
const org = "stats-compare";
let api: ApiServer;
let token: string;

beforeAll(async () => {
  api = await startApiServer({ nowMs: now, resultCacheRows: 10_000 });
  token = await api.createToken(org);
  await api.write(org, [
    recording("c1", "2026-11-02T09:00:00Z", { app_name: "Zoom", word_count: 100 }),
    recording("c2", "2026-11-02T10:00:00Z", { app_name: "Slack", word_count: 300 }),
    recording("c3", "2026-11-02T11:00:00Z", { app_name: "Teams", word_count: 50 }),
    // Two days before: the same position in the previous period of 2026-11-01..02.
    recording("p1", "2026-10-31T09:00:00Z", { app_name: "Zoom", word_count: 7 }),
    recording("p2", "2026-10-31T10:00:00Z", { app_name: "Teams", word_count: 11 }),
    recording("p3", "2026-10-31T11:00:00Z", { app_name: "Meet", word_count: 13 }),
  ]);
});
afterAll(() => api.close());

const get = async (query: string) => {
  const res = await api.get(`/api/v1/stats?start_date=2026-11-01&end_date=2026-11-02&${query}`, token);
  return { status: res.status, text: await res.text() };
};

describe("GET /api/v1/stats?compare=…", () => {
  it("refuses an unknown kind with a 400 naming compare", async () => {
    const reply = await get("compare=previous_week");
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.text).errors).toEqual([
      { parameter: "compare", message: expect.stringMatching(/"previous_period"\|"previous_year"/) },
    ]);
  });

  it("adds previous_<metric> after the metrics, the previous range in meta, CSV columns only then", async () => {
    const reply = await get("compare=previous_period&group_by=app_name&sort=-total_words&limit=1&other=true");
    expect(reply.status, reply.text).toBe(200);
    const body = JSON.parse(reply.text);
    expect(body.meta).toMatchObject({
      compare: "previous_period",
      previous_start_date: "2026-10-30T00:00:00.000Z",
      previous_end_date: "2026-11-01T00:00:00.000Z",
    });
    const rows = body.data.map((r: Record<string, unknown>) => [
      String(r.time_bucket).slice(0, 10),
      r.app_name,
      r.total_words,
      r.previous_total_words,
      r.previous_recording_count,
    ]);
    // Slack had nothing before; (other) folds Zoom and Teams, whose previous words are 7 + 11
    // (Meet, which has no row now, is in no row's previous values).
    expect(rows).toEqual([
      ["2026-11-02", "Slack", 300, 0, 0],
      ["2026-11-02", "(other)", 150, 18, 2],
    ]);
    expect(Object.keys(body.data[0]).slice(-6)).toEqual([
      "previous_recording_count",
      "previous_total_words",
      "previous_total_duration",
      "previous_avg_llm_processing_time",
      "previous_avg_voice_processing_time",
      "previous_avg_wpm",
    ]);
    const csv = await get("compare=previous_year&format=csv");
    expect(csv.text.split("\r\n")[0]).toBe(
      "time_bucket,recording_count,total_words,total_duration,avg_llm_processing_time,avg_voice_processing_time,avg_wpm," +
        "previous_recording_count,previous_total_words,previous_total_duration,previous_avg_llm_processing_time,previous_avg_voice_processing_time,previous_avg_wpm",
    );
    const plain = JSON.parse((await get("group_by=app_name")).text);
    expect(Object.keys(plain.meta)).toEqual([
      "start_date",
      "end_date",
      "granularity",
      "group_by",
      "timezone",
    ]);
    expect(Object.keys(plain.data[0]).some((k) => k.startsWith("previous_"))).toBe(false);
  });
});
