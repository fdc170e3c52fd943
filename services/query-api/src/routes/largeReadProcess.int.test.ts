import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { recording } from "@vu/testkit";
import { type ApiServer, type ApiServerOptions, startApiServer } from "@vu/testkit/api";
import { afterAll, beforeAll, expect, it } from "vitest";
import { LARGE_READ_VIA } from "../http/largeReadForwarding";

// With several API processes, the ones that take connections hand every question that would make a
// large read (more fields than LARGE_READ_FIELDS, here 100) to the large-read process over a Unix
// socket (apiProcesses.ts), and pass its answer on as it is. Here the two parts run in this test's
// process as apiProcesses.ts gives them out, beside one API that answers everything itself.
const now = Date.parse("2026-11-22T12:00:00Z");
const MEMBERS = 300;
const dir = mkdtempSync(join(tmpdir(), "vu-large-reads-"));
const socketPath = join(dir, "large-reads.sock");
let largeReads: ApiServer;
let front: ApiServer;
let alone: ApiServer;

/** One more API on the large-read process' store and tokens, reading in slices of 100 fields. */
const onTheSameStore = (options: Partial<ApiServerOptions>) =>
  startApiServer({
    nowMs: now,
    prefix: largeReads.keyspace.prefix,
    tokens: largeReads.tokens,
    readSliceFields: 100,
    ...options,
  });

beforeAll(async () => {
  largeReads = await startApiServer({
    nowMs: now,
    orgs: ["wide", "small"],
    readSliceFields: 100,
    role: { kind: "largeReads" },
    socketPath,
  });
  front = await onTheSameStore({ role: { kind: "forwards", socketPath }, rateLimitPerMinute: 6 });
  alone = await onTheSameStore({});
  await largeReads.write(
    "wide",
    Array.from({ length: MEMBERS }, (_, i) =>
      recording(`wide-${i}`, "2026-11-20T08:00:00Z", {
        organization_id: "wide",
        member_email: `m${i}@wide.example`,
      }),
    ),
  );
  await largeReads.write("small", [
    recording("small-1", "2026-11-20T08:00:00Z", { organization_id: "small" }),
  ]);
});
afterAll(async () => {
  await Promise.all([front, alone, largeReads].map((api) => api.close()));
  rmSync(dir, { recursive: true, force: true });
});

const STATS = "/api/v1/stats?start_date=2026-11-19&end_date=2026-11-21&group_by=member_email&page_size=100";

it("hands a large read to the large-read process once, and sends its answer on as it is", async () => {
  const small = await front.get(STATS, front.tokenFor("small"));
  expect(small.status).toBe(200);
  expect(small.headers.get("via"), "an ordinary question is answered where it arrived").toBeNull();

  const readsBefore = largeReads.reads.blocks;
  const large = await front.get(STATS, front.tokenFor("wide"), { "accept-encoding": "gzip" });
  expect(large.status).toBe(200);
  expect(large.headers.get("via")).toBe(LARGE_READ_VIA);
  expect(large.headers.get("content-encoding"), "compressed once, by the large-read process").toBe("gzip");
  const body = await large.text();
  expect(body).toBe(await (await alone.get(STATS, alone.tokenFor("wide"))).text());
  expect(largeReads.reads.blocks).toBeGreaterThan(readsBefore);

  // The next page comes from the answer the large-read process kept: it reads nothing.
  const readsAfterFirst = largeReads.reads.blocks;
  const page2 = await front.get(`${STATS}&page=2`, front.tokenFor("wide"));
  expect(page2.status).toBe(200);
  expect(page2.headers.get("via")).toBe(LARGE_READ_VIA);
  expect(await page2.text()).toBe(await (await alone.get(`${STATS}&page=2`, alone.tokenFor("wide"))).text());
  expect(largeReads.reads.blocks).toBe(readsAfterFirst);
});

it("tags a large answer as any process would, and answers a conditional request for it where it arrived", async () => {
  const identity = { "accept-encoding": "identity" };
  // A token of its own: the others have spent most of the limit of 6 a minute.
  const token = await largeReads.createToken("wide");
  const large = await front.get(STATS, token, identity);
  await large.arrayBuffer();
  expect(large.headers.get("via")).toBe(LARGE_READ_VIA);
  const tag = large.headers.get("etag") ?? "";
  const computedHere = await alone.get(STATS, token, identity);
  await computedHere.arrayBuffer();
  expect(computedHere.headers.get("etag")).toBe(tag);

  // docs/contract.md §9: the tag is checked against the write stamp here; nothing is handed over.
  const readsBefore = largeReads.reads.blocks;
  const unchanged = await front.get(STATS, token, { ...identity, "if-none-match": tag });
  expect(unchanged.status).toBe(304);
  expect(unchanged.headers.get("via")).toBeNull();
  expect(unchanged.headers.get("etag")).toBe(tag);
  expect(largeReads.reads.blocks).toBe(readsBefore);
});

it("counts members (docs/contract.md §9) in the large-read process when the read is large", async () => {
  const summary = "/api/v1/stats/summary?start_date=2026-11-19&end_date=2026-11-21&include=active_members";
  const counted = await front.get(summary, front.tokenFor("wide"));
  expect(counted.status).toBe(200);
  expect(counted.headers.get("via")).toBe(LARGE_READ_VIA);
  const body = await counted.text();
  expect(JSON.parse(body).active_members).toBe(MEMBERS);
  expect(body).toBe(await (await alone.get(summary, alone.tokenFor("wide"))).text());
});

it("answers a read in slices but under the large bound where it arrived", async () => {
  const sliced = await onTheSameStore({
    largeReadFields: 10 * MEMBERS,
    role: { kind: "forwards", socketPath },
  });
  try {
    const readsBefore = largeReads.reads.blocks;
    const answer = await sliced.get(STATS, sliced.tokenFor("wide"));
    expect(answer.status).toBe(200);
    expect(answer.headers.get("via")).toBeNull();
    expect(await answer.text()).toBe(await (await alone.get(STATS, alone.tokenFor("wide"))).text());
    expect(sliced.reads.blocks).toBeGreaterThan(0);
    expect(largeReads.reads.blocks).toBe(readsBefore);
  } finally {
    await sliced.close();
  }
});

it("counts a forwarded question once against the token's limit", async () => {
  const token = await largeReads.createToken("wide");
  const statuses: number[] = [];
  for (let i = 0; i < 7; i++) statuses.push((await front.get(`${STATS}&page=${i + 1}`, token)).status);
  expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
});

it("answers 503 with Retry-After while the large-read process cannot be reached, and ordinary questions still", async () => {
  const orphan = await onTheSameStore({
    role: { kind: "forwards", socketPath: join(dir, "nobody-listens.sock") },
  });
  try {
    const refused = await orphan.get(STATS, orphan.tokenFor("wide"));
    expect(refused.status).toBe(503);
    expect(refused.headers.get("retry-after")).toBe("1");
    expect(refused.headers.get("content-type")).toMatch(/^application\/problem\+json/);
    expect((await orphan.get(STATS, orphan.tokenFor("small"))).status).toBe(200);
  } finally {
    await orphan.close();
  }
});
