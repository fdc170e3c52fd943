import { recording } from "@vu/testkit";
import { type ApiServer, bodyOf, startApiServer } from "@vu/testkit/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { statsQuerySchema } from "./v1Stats";
import { summaryQuerySchema } from "./v1StatsSummary";

let api: ApiServer;
let token: string;

beforeAll(async () => {
  api = await startApiServer({ nowMs: Date.parse("2026-11-22T12:00:00Z") });
  token = await api.createToken("acme");
});
afterAll(() => api.close());

async function problem(path: string) {
  const res = await api.get(path, token);
  expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
  return { status: res.status, body: await bodyOf(res) };
}

describe("400 problem details", () => {
  it.each([
    ["granularity=minute", "granularity"],
    ["group_by=team", "group_by"],
    ["format=xml", "format"],
    ["page=0", "page"],
    ["page=abc", "page"],
    ["page=1.5", "page"],
    ["page_size=1001", "page_size"],
    ["page_size=0", "page_size"],
    ["page_size=", "page_size"],
    ["start_date=2026-02-30", "start_date"],
    ["start_date=yesterday", "start_date"],
    ["end_date=2026-11-01T25:00:00", "end_date"],
    ["start_date=2026-11-10&end_date=2026-11-01", "start_date"],
    ["timezone=Mars/Olympus", "timezone"],
    ["granularty=day", "granularty"],
    ["filter[team]=x", "filter[team]"],
    ["page=1&page=2", "page"],
    ["start_date=1990-01-01&granularity=hour", "granularity"],
  ])("/stats?%s names %s", async (query, parameter) => {
    const { status, body } = await problem(`/api/v1/stats?${query}`);
    expect(status).toBe(400);
    expect(body).toMatchObject({ type: "/problems/400", title: "Invalid parameters", status: 400 });
    expect(body.errors.map((e: { parameter: string }) => e.parameter)).toContain(parameter);
    expect(typeof body.detail).toBe("string");
  });

  it("validates the summary's parameters too", async () => {
    const { status, body } = await problem("/api/v1/stats/summary?start_date=2026-13-01&granularity=day");
    expect(status).toBe(400);
    expect(body.errors.map((e: { parameter: string }) => e.parameter).sort()).toEqual(["granularity"]);
  });

  it("refuses a summary range of millennia where nothing tells it where the data is", async () => {
    // Data written before the extent was recorded: the planner may skip nothing.
    await api.write("acme", [recording("old", "2026-11-20T10:00:00Z")]);
    await api.redis.del(api.keyspace.extent(1, "acme"));
    const { status, body } = await problem("/api/v1/stats/summary?start_date=0001-01-01&end_date=9999-12-31");
    expect(status).toBe(400);
    expect(body.errors[0]).toEqual({
      parameter: "start_date",
      message: expect.stringMatching(
        /^the range 0001-01-01T00:00:00.000Z..\+010000-01-01T00:00:00.000Z needs more than 60000 stored blocks/,
      ),
    });
  });

  it("reads a parameter after 1,000 empty separators (once dropped: a 200 with daily buckets)", async () => {
    const { status, body } = await problem(`/api/v1/stats?${"&".repeat(1000)}granularity=xml`);
    expect(status).toBe(400);
    expect(body.errors).toEqual([{ parameter: "granularity", message: expect.any(String) }]);
  });

  it("ignores empty segments, which are not parameters", async () => {
    const res = await api.get("/api/v1/stats?&&granularity=hour&&&start_date=2026-11-21&&", token);
    expect(res.status).toBe(200);
    expect((await bodyOf(res)).meta.granularity).toBe("hour");
  });

  it.each([
    ["/api/v1/stats", 1_001],
    // One more than /stats reads (its seed parameters, timezone and docs/contract.md §7's).
    ["/api/v1/stats", Object.keys(statsQuerySchema.shape).length + 1],
    // One more than the summary reads (the seed's, timezone, exclude[...] and compare).
    ["/api/v1/stats/summary", Object.keys(summaryQuerySchema.shape).length + 1],
  ])("refuses %s with %i parameters, more than it reads, in one bounded message", async (path, count) => {
    const query = Array.from({ length: count }, (_, i) => `p${i}=1`).join("&");
    const { status, body } = await problem(`${path}?${query}`);
    expect(status).toBe(400);
    expect(body.errors).toEqual([
      { parameter: "(query)", message: expect.stringMatching(new RegExp(`^has ${count} parameters`)) },
    ]);
  });

  it.each(["__proto__", "constructor", "hasOwnProperty", ""])(
    "refuses the parameter name '%s' as unknown",
    async (name) => {
      const { status, body } = await problem(`/api/v1/stats?${encodeURIComponent(name)}=1`);
      expect(status).toBe(400);
      expect(body.errors).toEqual([{ parameter: name, message: "unknown parameter" }]);
    },
  );

  it("answers unknown paths with a problem 404", async () => {
    const { status } = await problem("/api/v1/nope");
    expect(status).toBe(404);
  });
});
