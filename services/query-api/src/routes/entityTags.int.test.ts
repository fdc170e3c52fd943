import { waitFor } from "@vu/infra";
import { recording } from "@vu/testkit";
import { type ApiServer, startApiServer } from "@vu/testkit/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// docs/contract.md §9 `ETag` / `If-None-Match` on /stats and /stats/summary: a tag per answer,
// another whenever the answer could differ, and a 304 that reads nothing.
const now = Date.parse("2026-11-22T12:00:00Z");
const ORG = "tagged";
const OTHER = "untouched";
let api: ApiServer;
let token: string;

const at = (i: number) => new Date(Date.parse("2026-11-20T08:00:00Z") + i * 600_000).toISOString();
const members = ["ada", "bob", "cy", "dee", "eve", "fay", "gus", "hal"];

beforeAll(async () => {
  // No kept answers: every 200 here is computed, so a 304 that reads nothing is not a kept answer.
  api = await startApiServer({ nowMs: now, orgs: [ORG, OTHER], resultCacheRows: 0 });
  token = api.tokenFor(ORG);
  await api.write(ORG, [
    ...members.map((m, i) =>
      recording(`r${i}`, at(i), { organization_id: ORG, member_email: `${m}@example.com` }),
    ),
    // The next day in Kathmandu (08:45 local).
    recording("next-day", "2026-11-21T03:00:00Z", { organization_id: ORG }),
  ]);
  await api.write(OTHER, [recording("o1", at(1), { organization_id: OTHER })]);
  await api.setDataAsOf(Date.parse("2026-11-21T06:00:00Z"));
});
afterAll(() => api.close());

const STATS = "/api/v1/stats?start_date=2026-11-19&end_date=2026-11-21&timezone=Asia/Kathmandu";
const SUMMARY = "/api/v1/stats/summary?start_date=2026-11-19&end_date=2026-11-21";
const STRONG_TAG = /^"[\w-]{22}"$/;
const IDENTITY = { "accept-encoding": "identity" };

async function ask(path: string, headers: Record<string, string> = {}) {
  const reads = api.reads.requests;
  const res = await api.get(path, token, { ...IDENTITY, ...headers });
  const text = await res.text();
  return {
    status: res.status,
    tag: res.headers.get("etag") ?? "",
    text,
    headers: res.headers,
    reads: api.reads.requests - reads,
  };
}

describe("ETag", () => {
  it("is strong on every 200 (JSON, CSV, summary), the same for the same question in any order, another for another", async () => {
    const json = await ask(STATS);
    expect(json.status).toBe(200);
    expect(json.tag).toMatch(STRONG_TAG);
    expect((await ask(STATS)).tag).toBe(json.tag);
    const reordered = "/api/v1/stats?timezone=Asia/Kathmandu&end_date=2026-11-21&start_date=2026-11-19";
    expect((await ask(reordered)).tag).toBe(json.tag);
    const csv = await ask(`${STATS}&format=csv`);
    expect(csv.tag).toMatch(STRONG_TAG);
    const others = [
      csv.tag,
      (await ask(`${STATS}&page_size=1`)).tag,
      (await ask(`${STATS}&group_by=member_email`)).tag,
      (await ask("/api/v1/stats?start_date=2026-11-19&end_date=2026-11-21&timezone=Asia/Kolkata")).tag,
      (await ask(SUMMARY)).tag,
      (await ask(`${SUMMARY}&compare=previous_period`)).tag,
    ];
    expect(new Set([json.tag, ...others]).size).toBe(7);
    for (const tag of others) expect(tag).toMatch(STRONG_TAG);
    // Another organization's same question is another answer.
    const theirs = await api.get(STATS, api.tokenFor(OTHER), IDENTITY);
    expect(theirs.headers.get("etag")).not.toBe(json.tag);
  });

  it("names the content coding of a compressed body, and a 304 answers that tag too", async () => {
    const path = `${STATS}&granularity=hour&group_by=member_email`;
    const plain = await ask(path);
    const gzip = await ask(path, { "accept-encoding": "gzip" });
    expect(gzip.headers.get("content-encoding")).toBe("gzip");
    expect(gzip.tag).toBe(`${plain.tag.slice(0, -1)}-gzip"`);
    const again = await ask(path, { "accept-encoding": "gzip", "if-none-match": gzip.tag });
    expect(again.status).toBe(304);
    expect(again.tag).toBe(gzip.tag);
    expect(again.headers.get("vary")).toMatch(/accept-encoding/i);
  });
});

describe("If-None-Match", () => {
  it("is a 304 with no body, the tag and X-Data-As-Of, reading nothing, on /stats and /stats/summary", async () => {
    for (const path of [
      STATS,
      `${STATS}&format=csv`,
      SUMMARY,
      `${STATS}&week_start=sunday&granularity=week`,
    ]) {
      const first = await ask(path);
      expect(first.status, path).toBe(200);
      expect(first.reads, path).toBe(1);
      for (const held of [first.tag, `W/${first.tag}`, `"elsewhere", ${first.tag}`]) {
        const again = await ask(path, { "if-none-match": held });
        expect(again.status, `${path} ${held}`).toBe(304);
        expect(again.text).toBe("");
        expect(again.reads).toBe(0);
        expect(again.tag).toBe(first.tag);
        expect(again.headers.get("x-data-as-of")).toBe("2026-11-21T06:00:00.000Z");
        expect(again.headers.get("content-type")).toBeNull();
      }
    }
  });

  it("answers 200 with the answer for a tag it no longer has, and 304 for * once it is computed", async () => {
    const stale = await ask(STATS, { "if-none-match": '"not-a-tag-of-this-answer"' });
    expect(stale.status).toBe(200);
    expect(JSON.parse(stale.text).data.length).toBeGreaterThan(0);
    const any = await ask(STATS, { "if-none-match": "*" });
    expect(any.status).toBe(304);
    expect(any.reads).toBe(1);
    expect(any.tag).toBe(stale.tag);
  });

  it("gets the new answer and a new tag once a recording is counted, and not for another organization's", async () => {
    const total = (text: string) =>
      JSON.parse(text).data.reduce(
        (n: number, row: { recording_count: number }) => n + row.recording_count,
        0,
      );
    const before = await ask(STATS);
    const summaryBefore = await ask(SUMMARY);
    await api.write(OTHER, [recording("o2", at(2), { organization_id: OTHER })]);
    expect((await ask(STATS, { "if-none-match": before.tag })).status).toBe(304);

    await api.write(ORG, [recording("late", at(3), { organization_id: ORG })]);
    const after = await ask(STATS, { "if-none-match": before.tag });
    expect(after.status).toBe(200);
    expect(after.tag).toMatch(STRONG_TAG);
    expect(after.tag).not.toBe(before.tag);
    expect(total(after.text)).toBe(total(before.text) + 1);
    const summaryAfter = await ask(SUMMARY, { "if-none-match": summaryBefore.tag });
    expect(summaryAfter.status).toBe(200);
    expect(summaryAfter.tag).not.toBe(summaryBefore.tag);
    // A recording counted again (a redelivery) counts nothing: the answer, and its tag, stay.
    await api.write(ORG, [recording("late", at(3), { organization_id: ORG })]);
    expect((await ask(STATS, { "if-none-match": after.tag })).status).toBe(304);
  });

  it("is answered whatever the validation of the parameters says first: a bad question is a 400", async () => {
    const first = await ask(STATS);
    const bad = await ask(`${STATS}&granularity=decade`, { "if-none-match": "*" });
    expect(bad.status).toBe(400);
    const other = await ask(`${STATS}&other=true`, { "if-none-match": first.tag });
    expect(other.status).toBe(400);
  });
});

describe("ETag and the moment of the request", () => {
  it("stays within the minute a range without end_date ends in, and changes when the minute turns", async () => {
    let clock = Date.parse("2026-11-22T12:00:20Z");
    const moving = await startApiServer({ nowMs: clock, clock: () => clock, orgs: [ORG] });
    try {
      await moving.write(ORG, [recording("m1", "2026-11-21T10:00:00Z", { organization_id: ORG })]);
      const tagAt = async (path: string) => {
        const res = await moving.get(path, moving.tokenFor(ORG), IDENTITY);
        expect(res.status).toBe(200);
        await res.arrayBuffer();
        return res.headers.get("etag");
      };
      for (const path of ["/api/v1/stats/summary", "/api/v1/stats?granularity=hour"]) {
        clock = Date.parse("2026-11-22T12:00:20Z");
        const first = await tagAt(path);
        clock = Date.parse("2026-11-22T12:00:50Z");
        expect(await tagAt(path), path).toBe(first);
        clock = Date.parse("2026-11-22T12:01:10Z");
        expect(await tagAt(path), path).not.toBe(first);
      }
    } finally {
      await moving.close();
    }
  });

  it("with complete, changes when X-Data-As-Of passes a bucket's end, not while it moves within one", async () => {
    const path = `${STATS}&week_start=monday`;
    const withoutComplete = await ask(STATS);
    const asOf = async (iso: string) => {
      await api.setDataAsOf(Date.parse(iso));
      // The API reads the view again within moments (it keeps it for half a second).
      return waitFor(
        async () => {
          const reply = await ask(path);
          return reply.headers.get("x-data-as-of") === new Date(iso).toISOString() && reply;
        },
        { timeoutMs: 10_000, message: `X-Data-As-Of ${iso}` },
      );
    };
    // Rows for the 20th and 21st in Kathmandu, whose days end at 18:15 UTC.
    const completes = (text: string) => JSON.parse(text).data.map((r: { complete: boolean }) => r.complete);
    const early = await asOf("2026-11-20T06:00:00Z");
    const later = await asOf("2026-11-20T17:00:00Z");
    expect(later.tag).toBe(early.tag);
    expect(completes(later.text)).toEqual([false, false]);
    const past = await asOf("2026-11-20T18:15:00Z");
    expect(past.tag).not.toBe(early.tag);
    expect(completes(past.text)).toEqual([true, false]);
    // Without complete in the body, the instant changes nothing.
    expect((await ask(STATS)).tag).toBe(withoutComplete.tag);
  });
});
