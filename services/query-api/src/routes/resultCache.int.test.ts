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

  it("computes again for Cache-Control: no-cache, and for a range that ends now", async () => {
    await ask(SUMMARY);
    const fresh = await ask(SUMMARY, { "cache-control": "no-cache" });
    expect(fresh.reads).toBe(1);
    const open = "/api/v1/stats/summary?start_date=2026-11-19";
    await ask(open);
    expect((await ask(open)).reads).toBe(1);
  });
});
