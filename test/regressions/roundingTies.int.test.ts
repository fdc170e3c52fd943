import { randomUUID } from "node:crypto";
import type { RecordingCompleted } from "@vu/events";
import { createKeyspace, createRedisClient, createRollupWriter } from "@vu/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiServer, startApiServer } from "../support/apiServer";
import { httpGet } from "../support/httpClient";
import { sharedRedisUrl } from "../support/stack";

// Regression test for a bug the differential test found (fixed in f020a27): the query API rounded
// as Math.round(x * 1000) / 1000 on a floating-point quotient (services/query-api/src/query/
// rowMetrics.ts), so an exact half-thousandth went up or down by binary accident: 0.0005 minutes
// (30 ms) became 0.001 but 0.5005 minutes (30 030 ms) became 0.5, and a mean of 0.5005 s became 0.5
// while 0.0015 s became 0.002. CONTRACT §2: "rounded to 3 decimal places"; one rule (half up) for all.

const nowMs = Date.parse("2026-11-22T12:00:00Z");
const org = "rounding";
let api: ApiServer;

function recording(
  id: string,
  patch: Partial<RecordingCompleted>,
): { event: RecordingCompleted; recordedAtMs: number } {
  const recordedAt = "2026-11-20T10:00:00.000Z";
  const event: RecordingCompleted = {
    schema_version: 1,
    recording_id: id,
    organization_id: org,
    member_email: "ada@example.com",
    voice_model: "whisper",
    language_model: null,
    app_name: "Zoom",
    recorded_at: recordedAt,
    duration_ms: 0,
    word_count: 0,
    voice_processing_ms: null,
    llm_processing_ms: null,
    ...patch,
  };
  return { event, recordedAtMs: Date.parse(recordedAt) };
}

beforeAll(async () => {
  const prefix = `e2e-rounding-${randomUUID().slice(0, 8)}`;
  const redis = createRedisClient(sharedRedisUrl());
  const keyspace = createKeyspace({ prefix });
  const writer = createRollupWriter({ redis, keyspace, dedupeWindowMs: 86_400_000, now: () => nowMs });
  // Three member groups, each a separate exact half-thousandth.
  await writer.apply(1, org, [
    recording("tiny", { member_email: "tiny@example.com", duration_ms: 30 }),
    recording("half", { member_email: "half@example.com", duration_ms: 30_030 }),
    recording("v1", { member_email: "voice@example.com", voice_processing_ms: 500 }),
    recording("v2", { member_email: "voice@example.com", voice_processing_ms: 501 }),
    recording("w1", { member_email: "small@example.com", voice_processing_ms: 1 }),
    recording("w2", { member_email: "small@example.com", voice_processing_ms: 2 }),
  ]);
  await redis.quit();
  api = await startApiServer({ redisUrl: sharedRedisUrl(), prefix, nowMs, orgs: [org] });
});
afterAll(() => api.close());

async function summaryFor(member: string): Promise<Record<string, number>> {
  const query = `?start_date=2026-11-20&end_date=2026-11-20&filter%5Bmember_email%5D=${encodeURIComponent(member)}`;
  const reply = await httpGet(api.baseUrl, "/api/v1/stats/summary", api.tokenFor(org), query);
  expect(reply.status).toBe(200);
  return JSON.parse(reply.text) as Record<string, number>;
}

describe("rounding to 3 decimals treats every exact half the same way", () => {
  it("0.0005 and 0.5005 minutes both round up (half up, as 0.0005 → 0.001 already does)", async () => {
    expect((await summaryFor("tiny@example.com")).total_duration_minutes).toBe(0.001);
    expect((await summaryFor("half@example.com")).total_duration_minutes).toBe(0.501);
  });

  it("a mean of 0.0015 s and one of 0.5005 s both round up", async () => {
    expect((await summaryFor("small@example.com")).avg_voice_processing_seconds).toBe(0.002);
    expect((await summaryFor("voice@example.com")).avg_voice_processing_seconds).toBe(0.501);
  });
});
