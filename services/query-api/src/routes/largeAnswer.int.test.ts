import { type RedisServerHandle, startRedisServer } from "@vu/infra";
import { recording } from "@vu/testkit";
import { type ApiServer, type JsonBody, startApiServer } from "@vu/testkit/api";
import { createRedisCommandLog, type RedisCommandLog } from "@vu/testkit/redisCommandLog";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// An answer larger than a quarter of RESULT_CACHE_ROWS is kept apart (RESULT_CACHE_LARGE_ROWS):
// paging through it computes it once, and every later page costs the write stamp's read alone.
const now = Date.parse("2026-11-22T12:00:00Z");
const ORG = "large-answer";
const MEMBERS = 300;
const PAGE_SIZE = 100;
let api: ApiServer;
let token: string;
let log: RedisCommandLog;
let server: RedisServerHandle | undefined;

const at = (i: number) => new Date(Date.parse("2026-11-20T08:00:00Z") + i * 60_000).toISOString();
const member = (i: number) => `member${String(i).padStart(3, "0")}@example.com`;

beforeAll(async () => {
  // Ordinary answers up to 100 rows: this one (300 groups, and the pages rendered from it) is large.
  // A Redis of its own: MONITOR sees only this file's commands (and ioredis' monitor mode
  // breaks when other clients' commands arrive while it waits for a reply of its own).
  server = await startRedisServer({ appendonly: false });
  api = await startApiServer({ redisUrl: server.url, nowMs: now, orgs: [ORG], resultCacheRows: 400 });
  token = api.tokenFor(ORG);
  await api.write(
    ORG,
    Array.from({ length: MEMBERS }, (_, i) =>
      recording(`r${i}`, at(i), { organization_id: ORG, member_email: member(i) }),
    ),
  );
  log = await createRedisCommandLog(server.url);
});
afterAll(async () => {
  await log?.close();
  await api?.close();
  await server?.stop();
});

const QUERY = `/api/v1/stats?start_date=2026-11-19&end_date=2026-11-21&group_by=member_email&page_size=${PAGE_SIZE}`;
const orgKey = (arg: string) => arg.startsWith(api.keyspace.orgBase(1, ORG));

async function page(n: number) {
  const before = api.reads.requests;
  const res = await api.get(`${QUERY}&page=${n}`, token);
  expect(res.status).toBe(200);
  const body = (await res.json()) as JsonBody;
  return { body, reads: api.reads.requests - before, commands: await log.take(orgKey) };
}

describe("a large answer", () => {
  it("is computed once for every page, and later pages read only the write stamp", async () => {
    await log.take(orgKey);
    const first = await page(1);
    expect(first.reads).toBe(1);
    expect(first.body.pagination).toMatchObject({ total_rows: MEMBERS, total_pages: 3, count: PAGE_SIZE });
    expect(first.commands.length).toBeGreaterThan(1);
    const rows = [...first.body.data];
    for (const n of [2, 3]) {
      const next = await page(n);
      expect(next.reads).toBe(0);
      expect(next.commands).toEqual([["HMGET", api.keyspace.extent(1, ORG), "stamp", "n"]]);
      rows.push(...next.body.data);
    }
    expect(rows.map((row) => row.member_email)).toEqual(Array.from({ length: MEMBERS }, (_, i) => member(i)));
  });

  it("is computed again once a recording is counted, and shows it", async () => {
    await page(1);
    await api.write(ORG, [
      recording("r-late", at(MEMBERS), { organization_id: ORG, member_email: member(999) }),
    ]);
    const last = await page(4);
    expect(last.reads).toBe(1);
    expect(last.body.pagination.total_rows).toBe(MEMBERS + 1);
    expect(last.body.data.map((row) => row.member_email)).toEqual([member(999)]);
    expect((await page(1)).reads).toBe(0);
  });
});
