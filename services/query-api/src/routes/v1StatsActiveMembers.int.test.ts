import { recording } from "@vu/testkit";
import { type ApiServer, startApiServer } from "@vu/testkit/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// docs/contract.md §9 `include=active_members` over HTTP: what the differential suite
// (test/exactness) does not look at: the 400s' wording, field and column order, kept answers,
// `complete` (which naming it brings, as any §9 parameter does) and the answers' tags.
const now = Date.parse("2026-11-22T12:00:00Z");
let api: ApiServer;
let token: string;

const ada = { member_email: "ada@example.com" };
const bob = { member_email: "bob@example.com" };
const cy = { member_email: "cy@example.com" };

beforeAll(async () => {
  api = await startApiServer({ nowMs: now, resultCacheRows: 10_000 });
  token = await api.createToken("members");
  await api.write("members", [
    recording("r1", "2026-11-02T09:15:00Z", { ...ada, app_name: "Zoom" }),
    recording("r2", "2026-11-02T10:00:00Z", { ...ada, app_name: "Slack", voice_model: "nova" }),
    recording("r3", "2026-11-02T11:00:00Z", { ...bob, app_name: "Slack" }),
    recording("r4", "2026-11-02T19:00:00Z", { ...cy, app_name: "Teams", language_model: null }),
    recording("r5", "2026-11-04T10:00:00Z", { ...bob, app_name: "Zoom" }),
    recording("r6", "2026-11-04T12:00:00Z", { ...cy, app_name: "Zoom" }),
    // The period before 2026-11-01..05: ada twice, cy once.
    recording("p1", "2026-10-28T09:00:00Z", { ...ada, app_name: "Zoom" }),
    recording("p2", "2026-10-29T09:00:00Z", { ...ada, app_name: "Slack" }),
    recording("p3", "2026-10-29T12:00:00Z", { ...cy, app_name: "Slack" }),
  ]);
  // 2 November has ended by then, 4 November not.
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

describe("include=active_members on /stats and /stats/summary", () => {
  it.each([
    ["/api/v1/stats", "include=members", "include", /"active_members"/],
    ["/api/v1/stats", "include=", "include", /"active_members"/],
    ["/api/v1/stats/summary", "include=active_members,x", "include", /"active_members"/],
    ["/api/v1/stats", "sort=-active_members", "sort", /include=active_members first/],
  ])("%s refuses %s with a 400 naming %s", async (path, query, parameter, message) => {
    const reply = await get(path, query);
    expect(reply.status).toBe(400);
    expect(reply.type).toMatch(/^application\/problem\+json/);
    const errors = JSON.parse(reply.text).errors as Array<{ parameter: string; message: string }>;
    expect(errors).toEqual([{ parameter, message: expect.stringMatching(message) }]);
  });

  it("adds each row's distinct members after the metrics, then complete, and neither without the parameter", async () => {
    const plain = await stats("granularity=day");
    expect(plain.data[0]).not.toHaveProperty("active_members");
    expect(plain.data[0]).not.toHaveProperty("complete");
    const counted = await stats("granularity=day&include=active_members");
    expect(
      counted.data.map((r: Record<string, unknown>) => [r.time_bucket, r.active_members, r.complete]),
    ).toEqual([
      ["2026-11-02T00:00:00.000Z", 3, true],
      ["2026-11-04T00:00:00.000Z", 2, false],
    ]);
    expect(Object.keys(counted.data[0]).slice(-3)).toEqual(["avg_wpm", "active_members", "complete"]);
    const { active_members: _, complete: __, ...rest } = counted.data[0];
    expect(rest).toEqual(plain.data[0]);
  });

  it("counts per group, in a zone whose days are cut from finer blocks, and zero-fills with 0", async () => {
    const byApp = await stats("granularity=all&group_by=app_name&include=active_members");
    expect(byApp.data.map((r: Record<string, unknown>) => [r.app_name, r.active_members])).toEqual([
      ["Slack", 2],
      ["Teams", 1],
      ["Zoom", 3],
    ]);
    // Kolkata's 2026-11-02 ends at 18:30Z: cy's 19:00Z recording is on the 3rd there.
    const kolkata = await stats("timezone=Asia/Kolkata&fill=zero&include=active_members");
    expect(kolkata.data.map((r: Record<string, unknown>) => [r.time_bucket, r.active_members])).toEqual([
      ["2026-11-01T00:00:00.000+05:30", 0],
      ["2026-11-02T00:00:00.000+05:30", 2],
      ["2026-11-03T00:00:00.000+05:30", 1],
      ["2026-11-04T00:00:00.000+05:30", 2],
      ["2026-11-05T00:00:00.000+05:30", 0],
    ]);
  });

  it("gives the (other) row the distinct members of what it folds, sorts by members, compares", async () => {
    const top = await stats(
      "granularity=all&group_by=app_name&include=active_members&sort=active_members&limit=1&other=true&compare=previous_period",
    );
    // Teams (cy) kept; Slack (ada, bob) and Zoom (ada, bob, cy) fold into 3 members, not 5; the
    // period before, Slack (ada, cy) and Zoom (ada) into 2, not 3.
    expect(
      top.data.map((r: Record<string, unknown>) => [r.app_name, r.active_members, r.previous_active_members]),
    ).toEqual([
      ["Teams", 1, 0],
      ["(other)", 3, 2],
    ]);
    expect(Object.keys(top.data[0]).slice(-2)).toEqual(["previous_active_members", "complete"]);
  });

  it("writes the column in CSV only when asked", async () => {
    const plain = await get("/api/v1/stats", "granularity=all&format=csv");
    expect(plain.text.split("\r\n")[0]).not.toContain("active_members");
    const counted = await get(
      "/api/v1/stats",
      "granularity=all&format=csv&include=active_members&compare=previous_period",
    );
    const [header, line] = counted.text.split("\r\n");
    expect(header?.split(",").slice(6)).toEqual([
      "avg_wpm",
      "active_members",
      "previous_recording_count",
      "previous_total_words",
      "previous_total_duration",
      "previous_avg_llm_processing_time",
      "previous_avg_voice_processing_time",
      "previous_avg_wpm",
      "previous_active_members",
      "complete",
    ]);
    const cells = line?.split(",") ?? [];
    expect([cells[7], cells.at(-2), cells.at(-1)]).toEqual(["3", "2", "false"]);
  });

  it("adds the summary's distinct members, in previous and change too", async () => {
    const plain = await summary("");
    expect(plain).not.toHaveProperty("active_members");
    const counted = await summary("include=active_members&compare=previous_period");
    expect(Object.keys(counted).slice(-3)).toEqual(["active_members", "previous", "change"]);
    expect(counted.active_members).toBe(3);
    expect(counted.previous.active_members).toBe(2);
    expect(counted.change.active_members).toBe(0.5);
    expect(
      (await summary("include=active_members&exclude[member_email]=ADA@example.com")).active_members,
    ).toBe(2);
  });

  it("counts the members of quarters and Sunday weeks, each row's complete last", async () => {
    const quarters = await stats("granularity=quarter&include=active_members&compare=previous_period");
    // The range's part of the fourth quarter; the period before (27–31 October): ada and cy.
    expect(
      quarters.data.map((r: Record<string, unknown>) => [
        r.time_bucket,
        r.recording_count,
        r.active_members,
        r.previous_active_members,
        r.complete,
      ]),
    ).toEqual([["2026-10-01T00:00:00.000Z", 6, 3, 2, false]]);
    expect(Object.keys(quarters.data[0]).slice(-3)).toEqual([
      "previous_avg_wpm",
      "previous_active_members",
      "complete",
    ]);
    const weeks = await stats("granularity=week&week_start=sunday&group_by=app_name&include=active_members");
    expect(
      weeks.data.map((r: Record<string, unknown>) => [
        r.time_bucket,
        r.app_name,
        r.active_members,
        r.complete,
      ]),
    ).toEqual([
      ["2026-11-01T00:00:00.000Z", "Slack", 2, false],
      ["2026-11-01T00:00:00.000Z", "Teams", 1, false],
      ["2026-11-01T00:00:00.000Z", "Zoom", 3, false],
    ]);
  });

  it("tags the answers with and without members apart, and a 304 holds for either", async () => {
    const tagOf = async (query: string, ifNoneMatch?: string) => {
      const headers = { "accept-encoding": "identity", ...(ifNoneMatch && { "if-none-match": ifNoneMatch }) };
      const res = await api.get(`/api/v1/stats?${range}&${query}`, token, headers);
      await res.arrayBuffer();
      return { status: res.status, tag: res.headers.get("etag") ?? "" };
    };
    const quarter = "granularity=quarter";
    const plain = await tagOf(quarter);
    const counted = await tagOf(`${quarter}&include=active_members`);
    expect(plain.tag).toMatch(/^"[\w-]+"$/);
    expect(counted.tag).not.toBe(plain.tag);
    expect(await tagOf(`${quarter}&include=active_members`, counted.tag)).toEqual({
      status: 304,
      tag: counted.tag,
    });
    expect((await tagOf(`include=active_members&${quarter}`, counted.tag)).status).toBe(304);
    expect((await tagOf(quarter, counted.tag)).status).toBe(200);
    const summaries = await Promise.all(
      ["", "include=active_members"].map(async (query) => {
        const res = await api.get(`/api/v1/stats/summary?${range}&${query}`, token);
        await res.arrayBuffer();
        return res.headers.get("etag");
      }),
    );
    expect(summaries[0]).not.toBe(summaries[1]);
  });

  it("keeps the answers with and without members apart", async () => {
    // The same question twice each way, in turns: a kept answer never answers the other.
    for (let i = 0; i < 2; i++) {
      expect((await stats("granularity=week")).data[0]).not.toHaveProperty("active_members");
      expect((await stats("granularity=week&include=active_members")).data[0].active_members).toBe(3);
      expect(await summary("")).not.toHaveProperty("active_members");
      expect((await summary("include=active_members")).active_members).toBe(3);
    }
  });
});
