import { recording } from "@vu/testkit";
import { type ApiServer, type JsonBody, startApiServer } from "@vu/testkit/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// A repeated query is answered from the kept answer, and only while no batch was counted since
// (the write stamp); a counted recording shows in the very next answer.
const now = Date.parse("2026-11-22T12:00:00Z");
const ORG = "cached";
let api: ApiServer;
let token: string;

const at = (i: number) => new Date(Date.parse("2026-11-20T08:00:00Z") + i * 600_000).toISOString();

beforeAll(async () => {
  api = await startApiServer({ nowMs: now, orgs: [ORG] });
  token = api.tokenFor(ORG);
  await api.write(
    ORG,
    Array.from({ length: 5 }, (_, i) => recording(`r${i}`, at(i), { organization_id: ORG })),
  );
});
afterAll(() => api.close());

async function ask(path: string, headers: Record<string, string> = {}) {
  const before = api.reads.requests;
  const response = await api.get(path, token, headers);
  expect(response.status).toBe(200);
  return { body: (await response.json()) as JsonBody, reads: api.reads.requests - before };
}

const STATS =
  "/api/v1/stats?start_date=2026-11-19&end_date=2026-11-21&timezone=Asia/Kolkata&group_by=app_name";
const SUMMARY = "/api/v1/stats/summary?start_date=2026-11-19&end_date=2026-11-21";
const count = (body: JsonBody) =>
  body.data.reduce((n: number, row: { recording_count: number }) => n + row.recording_count, 0);

describe("the result cache", () => {
  it("answers a repeated query without reading blocks, and counts a new recording at once", async () => {
    const first = await ask(STATS);
    expect(first.reads).toBe(1);
    expect(count(first.body)).toBe(5);
    const again = await ask(STATS);
    expect(again.reads).toBe(0);
    expect(again.body).toEqual(first.body);
    // Another page of the same query is the same kept answer.
    expect((await ask(`${STATS}&page=2&page_size=1`)).reads).toBe(0);

    await api.write(ORG, [recording("r-new", at(7), { organization_id: ORG })]);
    const after = await ask(STATS);
    expect(after.reads).toBe(1);
    expect(count(after.body)).toBe(6);
  });

  it("keeps summaries too, and a batch of recordings counted before changes nothing", async () => {
    const first = await ask(SUMMARY);
    expect(first.reads).toBe(1);
    expect((await ask(SUMMARY)).reads).toBe(0);
    // Redelivered: nothing is counted, so the kept answer is still the answer.
    await api.write(ORG, [recording("r0", at(0), { organization_id: ORG })]);
    const again = await ask(SUMMARY);
    expect(again.reads).toBe(0);
    expect(again.body).toEqual(first.body);
  });

  it("computes again for Cache-Control: no-cache", async () => {
    await ask(SUMMARY);
    const fresh = await ask(SUMMARY, { "cache-control": "no-cache" });
    expect(fresh.reads).toBe(1);
  });

  it("keeps an answer whose range ends now until the minute turns, and a new recording shows at once", async () => {
    let clockMs = now + 5_000;
    const moving = await startApiServer({
      nowMs: now,
      clock: () => clockMs,
      prefix: api.keyspace.prefix,
      orgs: [ORG],
      tokens: api.tokens,
    });
    try {
      const askMoving = async (path: string) => {
        const before = moving.reads.requests;
        const response = await moving.get(path, token);
        expect(response.status).toBe(200);
        return { body: (await response.json()) as JsonBody, reads: moving.reads.requests - before };
      };
      const open = "/api/v1/stats/summary?start_date=2026-11-19";
      const stats = "/api/v1/stats?granularity=day&timezone=Asia/Kolkata";
      const first = await askMoving(open);
      expect(first.reads).toBe(1);
      const firstStats = await askMoving(stats);
      expect(firstStats.reads).toBe(1);
      // Later in the same minute: the range resolves to the same whole minutes, the same question.
      clockMs = now + 50_000;
      const again = await askMoving(open);
      expect(again.reads).toBe(0);
      expect(again.body).toEqual(first.body);
      expect((await askMoving(stats)).reads).toBe(0);
      // A recording counted: the stamp moved, so it is computed again and counts it.
      await api.write(ORG, [recording("r-now", at(9), { organization_id: ORG })]);
      const counted = await askMoving(open);
      expect(counted.reads).toBe(1);
      expect(counted.body.total_recordings).toBe((first.body.total_recordings as number) + 1);
      // The next minute: another range, computed, its end a minute later.
      clockMs = now + 65_000;
      expect((await askMoving(open)).reads).toBe(1);
      const laterStats = await askMoving(stats);
      expect(laterStats.reads).toBe(1);
      expect(laterStats.body.meta.end_date).not.toBe(firstStats.body.meta.end_date);
    } finally {
      await moving.close();
    }
  });
});
