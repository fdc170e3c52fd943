import type { RecordingCompleted } from "@vu/events";
import { recording } from "@vu/testkit";
import { type ApiServer, startApiServer } from "@vu/testkit/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { httpGet } from "../support/httpClient";

// Exact halves round one way, half up, on the integer sums (services/query-api/src/query/
// rowMetrics.ts; docs/contract.md §2: "rounded to 3 decimal places"). Math.round(x * 1000) / 1000
// on a floating-point quotient would send an exact half-thousandth up or down by binary accident:
// 0.0005 minutes (30 ms) to 0.001 but 0.5005 minutes (30 030 ms) to 0.5, and a mean of 0.5005 s to
// 0.5 while 0.0015 s goes to 0.002. The differential test (exactness) met such ties first.

const nowMs = Date.parse("2026-11-22T12:00:00Z");
const org = "rounding";
let api: ApiServer;

/** A recording with nothing but what a test sets: no words, no duration, no processing times. */
const bare = (id: string, patch: Partial<RecordingCompleted>) =>
  recording(id, "2026-11-20T10:00:00.000Z", {
    organization_id: org,
    language_model: null,
    duration_ms: 0,
    word_count: 0,
    voice_processing_ms: null,
    llm_processing_ms: null,
    ...patch,
  });

beforeAll(async () => {
  api = await startApiServer({ nowMs, orgs: [org] });
  // Three member groups, each a separate exact half-thousandth.
  await api.write(org, [
    bare("tiny", { member_email: "tiny@example.com", duration_ms: 30 }),
    bare("half", { member_email: "half@example.com", duration_ms: 30_030 }),
    bare("v1", { member_email: "voice@example.com", voice_processing_ms: 500 }),
    bare("v2", { member_email: "voice@example.com", voice_processing_ms: 501 }),
    bare("w1", { member_email: "small@example.com", voice_processing_ms: 1 }),
    bare("w2", { member_email: "small@example.com", voice_processing_ms: 2 }),
  ]);
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
