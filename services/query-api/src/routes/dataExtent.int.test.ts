import { recording } from "@vu/testkit";
import { type ApiServer, type JsonBody, startApiServer } from "@vu/testkit/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// A query reads nothing where the organization has no data, and no request can read more than
// MAX_BLOCKS_PER_REQUEST blocks (docs/contract.md §2 "Cost").
const now = Date.parse("2026-11-22T12:00:00Z");
let api: ApiServer;
let token: string;
let wholeToken: string;
// 51 recordings over ten days; an organization of its own per case keeps the extents apart.
const recordings = Array.from({ length: 51 }, (_, i) =>
  recording(`r${i}`, new Date(Date.parse("2026-11-10T00:07:00Z") + i * 4.7 * 3_600_000).toISOString(), {
    organization_id: "extent",
    app_name: i % 2 === 0 ? "Zoom" : "Slack",
  }),
);

beforeAll(async () => {
  api = await startApiServer({ nowMs: now, maxBlocksPerRequest: 5_000 });
  await api.write("extent", recordings);
  token = await api.createToken("extent");
  wholeToken = await api.createToken("no-data");
});
afterAll(() => api.close());

async function cost(path: string, bearer = token) {
  const before = { ...api.reads };
  const response = await api.get(path, bearer);
  const body = (await response.json()) as JsonBody;
  return { status: response.status, body, blocks: api.reads.blocks - before.blocks };
}

describe("the data extent", () => {
  it("answers hours in +05:30 in the year 2100 without reading a block", async () => {
    const reply = await cost(
      "/api/v1/stats?granularity=hour&timezone=%2B05:30&start_date=2100-01-01&end_date=2100-01-07",
    );
    expect(reply.status).toBe(200);
    expect(reply.body.data).toEqual([]);
    expect(reply.body.meta.start_date).toBe("2100-01-01T00:00:00.000+05:30");
    expect(reply.blocks).toBe(0);
  });

  it("answers two centuries of months in +05:30 without reading a block", async () => {
    const reply = await cost(
      "/api/v1/stats?granularity=month&timezone=%2B05:30&start_date=2100-01-01&end_date=2300-12-31&page_size=1",
    );
    expect(reply.status).toBe(200);
    expect(reply.body.pagination).toMatchObject({ total_rows: 0, total_pages: 0, count: 0 });
    expect(reply.blocks).toBe(0);
    const summary = await cost("/api/v1/stats/summary?start_date=1900-01-01&end_date=2300-12-31");
    expect(summary.body).toMatchObject({ total_recordings: 51 });
    // Only where the data is: a few days, a few hours and minutes at the edges, not five centuries.
    expect(summary.blocks).toBeLessThan(200);
  });

  it("reads nothing for an organization without data", async () => {
    const reply = await cost("/api/v1/stats?start_date=2026-01-01&end_date=2026-11-22", wholeToken);
    expect(reply.body.data).toEqual([]);
    expect(reply.blocks).toBe(0);
  });

  it("reads only the buckets that can hold data, with the same numbers", async () => {
    // 11.8 days of Kolkata hours would need about 17,000 minute blocks, over this API's limit of
    // 5,000; the data starts on the 10th, so the 2.8 days from there are all that is read.
    const path =
      "/api/v1/stats?granularity=hour&timezone=Asia/Kolkata&start_date=2026-11-01&end_date=2026-11-12&group_by=app_name";
    const reply = await cost(path);
    expect(reply.status).toBe(200);
    const counted = reply.body.data.reduce(
      (n: number, row: { recording_count: number }) => n + row.recording_count,
      0,
    );
    const end = Date.parse("2026-11-12T18:30:00Z");
    expect(counted).toBe(recordings.filter((r) => r.recordedAtMs < end).length);
    expect(reply.blocks).toBeGreaterThan(0);
    expect(reply.blocks).toBeLessThan(5_000);
    const days = await cost("/api/v1/stats?granularity=day&start_date=2026-01-01&end_date=2026-12-31");
    expect(days.body.data.map((row: { time_bucket: string }) => row.time_bucket.slice(0, 10))).toEqual(
      Array.from({ length: 10 }, (_, i) => `2026-11-${String(10 + i).padStart(2, "0")}`),
    );
  });

  it("turns a request that would still read too many blocks into a 400 naming the range", async () => {
    // Data written before the extent was recorded: nothing may be skipped, so centuries of months
    // in +05:45 need far more than this API's limit of 5,000 blocks.
    await api.write("legacy", [recording("old", "2026-11-20T10:00:00Z", { organization_id: "legacy" })]);
    await api.redis.del(api.keyspace.extent(1, "legacy"));
    const reply = await cost(
      "/api/v1/stats?granularity=month&timezone=%2B05:45&start_date=1500-01-01&end_date=2299-12-31",
      await api.createToken("legacy"),
    );
    expect(reply.status).toBe(400);
    expect(reply.body.errors).toEqual([
      {
        parameter: "start_date",
        message: expect.stringMatching(
          /^the range 1499-12-31T05:45:00.000\+05:45..2300-01-01T00:00:00.000\+05:45 needs more than 5000 stored blocks/,
        ),
      },
    ]);
    expect(reply.blocks).toBe(0);
  });
});
