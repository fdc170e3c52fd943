import { recording } from "@vu/testkit";
import { type ApiServer, startApiServer } from "@vu/testkit/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// docs/contract.md §9 `percentiles` over HTTP: what the differential suite (test/exactness) does
// not look at: the 400s' wording, field and column order, nulls, exact small values, the "(other)"
// row, kept answers and `complete` (which naming it brings, as any §9 parameter does).
const now = Date.parse("2026-11-22T12:00:00Z");
let api: ApiServer;
let token: string;

/** Zoom: voice 10, 20, 30, 40 ms, llm none; Slack: voice 1000 and 3000 ms, llm 500 ms; Teams: one. */
beforeAll(async () => {
  api = await startApiServer({ nowMs: now, resultCacheRows: 10_000 });
  token = await api.createToken("tails");
  const zoom = { app_name: "Zoom", language_model: null, llm_processing_ms: null };
  await api.write("tails", [
    recording("z1", "2026-11-02T09:15:00Z", { ...zoom, voice_processing_ms: 30 }),
    recording("z2", "2026-11-02T10:00:00Z", { ...zoom, voice_processing_ms: 10 }),
    recording("z3", "2026-11-02T11:00:00Z", { ...zoom, voice_processing_ms: 40 }),
    recording("z4", "2026-11-04T19:00:00Z", { ...zoom, voice_processing_ms: 20 }),
    recording("s1", "2026-11-02T12:00:00Z", {
      app_name: "Slack",
      voice_processing_ms: 1000,
      llm_processing_ms: 500,
    }),
    recording("s2", "2026-11-04T12:00:00Z", {
      app_name: "Slack",
      voice_processing_ms: 3000,
      llm_processing_ms: null,
    }),
    recording("t1", "2026-11-04T13:00:00Z", {
      app_name: "Teams",
      voice_processing_ms: null,
      llm_processing_ms: 7,
    }),
  ]);
  await api.setDataAsOf(Date.parse("2026-11-03T00:00:00Z"));
});
afterAll(() => api.close());

const range = "start_date=2026-11-01&end_date=2026-11-05";
const get = async (path: string, query: string) => {
  const res = await api.get(`${path}?${range}&${query}`, token);
  return { status: res.status, type: res.headers.get("content-type"), text: await res.text() };
};
const json = async (path: string, query: string) => {
  const reply = await get(path, query);
  expect(reply.status, reply.text).toBe(200);
  return JSON.parse(reply.text);
};
const stats = (query: string) => json("/api/v1/stats", query);
const summary = (query: string) => json("/api/v1/stats/summary", query);
type Row = Record<string, unknown>;
/** The round number a percentile estimates within 1 % (these tests' times are), or the value as it is. */
const nearly = (value: unknown) => {
  if (typeof value !== "number") return value;
  const round = [7, 10, 20, 30, 40, 500, 1000, 3000].find((exact) => Math.abs(value - exact) <= 0.01 * exact);
  return round ?? value;
};

describe("percentiles on /stats and /stats/summary", () => {
  it.each([
    ["/api/v1/stats", "percentiles=", "percentiles", /from 1 to 99/],
    ["/api/v1/stats", "percentiles=0", "percentiles", /from 1 to 99/],
    ["/api/v1/stats", "percentiles=100", "percentiles", /from 1 to 99/],
    ["/api/v1/stats/summary", "percentiles=p95", "percentiles", /"p95" is not one/],
    ["/api/v1/stats", "percentiles=9.5", "percentiles", /from 1 to 99/],
    ["/api/v1/stats", "percentiles=50,50", "percentiles", /twice/],
    ["/api/v1/stats/summary", "percentiles=1,2,3,4,5", "percentiles", /at most 4/],
    ["/api/v1/stats", "percentiles=50&sort=p50_voice_processing_time", "sort", /not a metric/],
  ])("%s refuses %s with a 400 naming %s", async (path, query, parameter, message) => {
    const reply = await get(path, query);
    expect(reply.status).toBe(400);
    expect(reply.type).toMatch(/^application\/problem\+json/);
    const errors = JSON.parse(reply.text).errors as Array<{ parameter: string; message: string }>;
    expect(errors).toEqual([{ parameter, message: expect.stringMatching(message) }]);
  });

  it("adds each percentile after the metrics in ascending order, voice then LLM, then complete", async () => {
    const plain = await stats("granularity=day&group_by=app_name");
    expect(plain.data[0]).not.toHaveProperty("p50_voice_processing_time");
    expect(plain.data[0]).not.toHaveProperty("complete");
    const asked = await stats("granularity=day&group_by=app_name&percentiles=99, 50");
    const slack = asked.data[0] as Row;
    expect(Object.keys(slack).slice(-6)).toEqual([
      "avg_wpm",
      "p50_voice_processing_time",
      "p50_llm_processing_time",
      "p99_voice_processing_time",
      "p99_llm_processing_time",
      "complete",
    ]);
    const {
      p50_voice_processing_time,
      p50_llm_processing_time,
      p99_voice_processing_time,
      p99_llm_processing_time,
      complete,
      ...rest
    } = slack;
    expect(rest).toEqual(plain.data[0]);
    // Small times come back exact, larger ones within 1 %; a row without any LLM time has null.
    expect(
      asked.data.map((r: Row) => [
        r.time_bucket,
        r.app_name,
        nearly(r.p50_voice_processing_time),
        nearly(r.p50_llm_processing_time),
        r.complete,
      ]),
    ).toEqual([
      ["2026-11-02T00:00:00.000Z", "Slack", 1000, 500, true],
      ["2026-11-02T00:00:00.000Z", "Zoom", 30, null, true],
      ["2026-11-04T00:00:00.000Z", "Slack", 3000, null, false],
      ["2026-11-04T00:00:00.000Z", "Teams", null, 7, false],
      ["2026-11-04T00:00:00.000Z", "Zoom", 20, null, false],
    ]);
    expect(asked.data[1].p50_voice_processing_time).toBe(30);
  });

  it("is the nearest rank of the whole bucket, and of everything an (other) row folds", async () => {
    const all = await stats("granularity=all&group_by=app_name&percentiles=25,50,75");
    const zoom = all.data.find((r: Row) => r.app_name === "Zoom");
    // 10, 20, 30, 40: ranks ⌈0.25·4⌉ = 1, ⌈0.5·4⌉ = 2, ⌈0.75·4⌉ = 3.
    expect([
      zoom.p25_voice_processing_time,
      zoom.p50_voice_processing_time,
      zoom.p75_voice_processing_time,
    ]).toEqual([10, 20, 30]);
    // Sorted by name descending, limit 1 keeps Zoom; Teams and Slack fold into the (other) row.
    const top = await stats(
      "granularity=all&group_by=app_name&sort=-app_name&limit=1&other=true&percentiles=50",
    );
    const other = top.data.find((r: Row) => r.app_name === "(other)");
    // Voice 1000 and 3000 (Teams has none): rank 1 → 1000 within 1 %; LLM 500 and 7: rank 1 → 7.
    expect(Math.abs((other.p50_voice_processing_time as number) - 1000)).toBeLessThanOrEqual(10);
    expect(other.p50_llm_processing_time).toBe(7);
  });

  it("gives the summary seconds, before active_members, and none in previous or change", async () => {
    const plain = await summary("");
    const asked = await summary("percentiles=50&include=active_members&compare=previous_period");
    expect(Object.keys(asked)).toEqual([
      ...Object.keys(plain),
      "p50_voice_processing_seconds",
      "p50_llm_processing_seconds",
      "active_members",
      "previous",
      "change",
    ]);
    // Voice 10, 20, 30, 40, 1000, 3000: rank 3 → 30 ms; LLM 7, 500: rank 1 → 7 ms.
    expect(asked.p50_voice_processing_seconds).toBe(0.03);
    expect(asked.p50_llm_processing_seconds).toBe(0.007);
    expect(asked.previous).not.toHaveProperty("p50_voice_processing_seconds");
    expect(asked.change).not.toHaveProperty("p50_voice_processing_seconds");
  });

  it("writes the columns in CSV after avg_wpm and before active_members, a null as an empty cell", async () => {
    const plain = await get("/api/v1/stats", "granularity=all&format=csv&group_by=app_name");
    expect(plain.text.split("\r\n")[0]).not.toContain("p50");
    const asked = await get(
      "/api/v1/stats",
      "granularity=all&format=csv&group_by=app_name&percentiles=50&include=active_members",
    );
    const [header, , teams] = asked.text.split("\r\n");
    expect(header?.split(",").slice(8)).toEqual([
      "p50_voice_processing_time",
      "p50_llm_processing_time",
      "active_members",
      "complete",
    ]);
    expect(teams?.split(",").slice(8)).toEqual(["", "7", "1", "false"]);
  });

  it("refuses percentiles of an organization counted without sketches, and answers it otherwise", async () => {
    const plainToken = await api.createToken("plain");
    await api.writeWithoutSketches("plain", [recording("p1", "2026-11-02T09:15:00Z")]);
    const ask = async (path: string, query: string) => {
      const res = await api.get(`${path}?${range}&${query}`, plainToken);
      return { status: res.status, body: (await res.json()) as { errors?: unknown } };
    };
    for (const path of ["/api/v1/stats", "/api/v1/stats/summary"]) {
      const refused = await ask(path, "percentiles=50");
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual([
        { parameter: "percentiles", message: expect.stringMatching(/PERCENTILE_SKETCHES/) },
      ]);
      expect((await ask(path, "")).status).toBe(200);
    }
  });

  it("keeps answers per set of percentiles, whatever their order", async () => {
    const first = await get("/api/v1/stats", "granularity=all&percentiles=95,5");
    const same = await get("/api/v1/stats", "granularity=all&percentiles=5,95");
    const other = await get("/api/v1/stats", "granularity=all&percentiles=5");
    expect(same.text).toBe(first.text);
    expect(other.text).not.toBe(first.text);
    expect(JSON.parse(other.text).data[0]).not.toHaveProperty("p95_voice_processing_time");
  });
});
