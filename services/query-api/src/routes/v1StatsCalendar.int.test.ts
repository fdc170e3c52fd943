import { recording } from "@vu/testkit";
import { type ApiServer, startApiServer } from "@vu/testkit/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// docs/contract.md §9 on /stats over HTTP: quarters, years and Sunday weeks in the query's zone,
// and `complete` on every row once one of them is named. The differential suite (test/) checks
// the numbers in random zones; this checks the shape, the 400s and `complete` against a known
// X-Data-As-Of.
const now = Date.parse("2026-11-22T12:00:00Z");
let api: ApiServer;
let token: string;

beforeAll(async () => {
  api = await startApiServer({ nowMs: now, orgs: ["acme"] });
  token = api.tokenFor("acme");
  await api.write("acme", [
    // New Year's Eve in Berlin after 23:00 UTC: 2026 there, 2025 in UTC.
    recording("r1", "2025-12-31T23:30:00Z", { app_name: "Zoom" }),
    recording("r2", "2026-03-31T21:59:00Z", { app_name: "Slack" }),
    // 1 April 00:00 in Berlin (+02:00): the second quarter.
    recording("r3", "2026-03-31T22:00:00Z", { app_name: "Zoom" }),
    recording("r4", "2026-08-15T10:00:00Z", { app_name: "Zoom" }),
    // Saturday 31 October and Sunday 1 November 2026, Berlin evening and morning.
    recording("r5", "2026-10-31T20:00:00Z", { app_name: "Teams" }),
    recording("r6", "2026-11-01T08:00:00Z", { app_name: "Teams" }),
  ]);
  // Q1..Q3 of Berlin's 2026 have ended by then, the fourth quarter not.
  await api.setDataAsOf(Date.parse("2026-11-01T12:00:00Z"));
});
afterAll(() => api.close());

const BERLIN_2026 = "start_date=2026-01-01&end_date=2026-12-31&timezone=Europe/Berlin";

async function get(query: string) {
  const res = await api.get(`/api/v1/stats?${query}`, token);
  return { status: res.status, text: await res.text(), res };
}

async function rows(query: string): Promise<Array<Record<string, unknown>>> {
  const reply = await get(query);
  expect(reply.status, reply.text).toBe(200);
  return JSON.parse(reply.text).data;
}

describe("GET /api/v1/stats with docs/contract.md §9's calendar", () => {
  it("cuts quarters at Berlin's local midnights, each row's complete last", async () => {
    const data = await rows(`${BERLIN_2026}&granularity=quarter`);
    expect(data.map((r) => [r.time_bucket, r.recording_count, r.complete])).toEqual([
      ["2026-01-01T00:00:00.000+01:00", 2, true],
      ["2026-04-01T00:00:00.000+02:00", 1, true],
      ["2026-07-01T00:00:00.000+02:00", 1, true],
      ["2026-10-01T00:00:00.000+02:00", 2, false],
    ]);
    expect(Object.keys(data[0] ?? {}).at(-1)).toBe("complete");
  });

  it("cuts years at New Year's local midnight, and meta names the granularity", async () => {
    const reply = await get(
      "start_date=2025-06-01&end_date=2026-12-31&timezone=Europe/Berlin&granularity=year",
    );
    const body = JSON.parse(reply.text);
    expect(body.meta.granularity).toBe("year");
    expect(
      body.data.map((r: Record<string, unknown>) => [r.time_bucket, r.recording_count, r.complete]),
    ).toEqual([["2026-01-01T00:00:00.000+01:00", 6, false]]);
    const utc = await rows("start_date=2025-06-01&end_date=2026-12-31&granularity=year");
    expect(utc.map((r) => [r.time_bucket, r.recording_count])).toEqual([
      ["2025-01-01T00:00:00.000Z", 1],
      ["2026-01-01T00:00:00.000Z", 5],
    ]);
  });

  it("starts weeks on Sunday with week_start=sunday, on Monday with monday (and complete then too)", async () => {
    const range = "start_date=2026-10-25&end_date=2026-11-07&timezone=Europe/Berlin&granularity=week";
    const sunday = await rows(`${range}&week_start=sunday`);
    expect(sunday.map((r) => [r.time_bucket, r.recording_count, r.complete])).toEqual([
      ["2026-10-25T00:00:00.000+02:00", 1, true],
      ["2026-11-01T00:00:00.000+01:00", 1, false],
    ]);
    const monday = await rows(`${range}&week_start=monday`);
    expect(monday.map((r) => [r.time_bucket, r.recording_count, r.complete])).toEqual([
      ["2026-10-26T00:00:00.000+01:00", 2, false],
    ]);
    // Without a §9 parameter: the rows as before, no complete.
    const seed = await rows(range);
    expect(seed).toEqual(monday.map(({ complete: _, ...row }) => row));
  });

  it("writes complete as the last CSV column, only when asked", async () => {
    const csv = (await get(`${BERLIN_2026}&granularity=quarter&group_by=app_name&format=csv`)).text.split(
      "\r\n",
    );
    expect(csv[0]).toBe(
      "time_bucket,app_name,recording_count,total_words,total_duration,avg_llm_processing_time,avg_voice_processing_time,avg_wpm,complete",
    );
    expect(csv.slice(1, -1).map((line) => line.split(",").at(-1))).toEqual([
      "true",
      "true",
      "true",
      "true",
      "false",
    ]);
    const month = (await get(`${BERLIN_2026}&granularity=month&format=csv`)).text.split("\r\n");
    expect(month[0]?.endsWith(",avg_wpm")).toBe(true);
  });

  it("puts complete after the previous values of compare, and on fill's zero rows", async () => {
    const data = await rows(`${BERLIN_2026}&granularity=quarter&compare=previous_year&fill=zero`);
    expect(data).toHaveLength(4);
    expect(Object.keys(data[0] ?? {}).slice(-2)).toEqual(["previous_avg_wpm", "complete"]);
    const empty = await rows(
      "start_date=2027-01-01&end_date=2027-12-31&timezone=Europe/Berlin&granularity=quarter&fill=zero",
    );
    expect(empty.map((r) => [r.recording_count, r.complete])).toEqual([
      [0, false],
      [0, false],
      [0, false],
      [0, false],
    ]);
  });

  it.each([
    ["granularity=decade", "granularity", /"quarter"\|"year"\|"all"/],
    ["granularity=Quarter", "granularity", /"quarter"/],
    ["week_start=saturday", "week_start", /"monday"\|"sunday"/],
    ["week_start=", "week_start", /"monday"\|"sunday"/],
  ])("refuses %s with a 400 naming %s", async (query, parameter, message) => {
    const reply = await get(`${BERLIN_2026}&${query}`);
    expect(reply.status).toBe(400);
    expect(JSON.parse(reply.text).errors).toEqual([{ parameter, message: expect.stringMatching(message) }]);
  });

  it("refuses more than 10,000 quarters, naming granularity", async () => {
    const quarters = await get("start_date=0001-01-01&end_date=9999-12-31&granularity=quarter");
    expect(quarters.status).toBe(400);
    expect(JSON.parse(quarters.text).errors[0].message).toMatch(
      /10000 quarter buckets; use a coarser granularity/,
    );
  });
});
