import { describe, expect, it } from "vitest";
import { sortBatch } from "./batchSorter";

const nowMs = Date.parse("2026-11-22T12:00:00Z");
const options = { nowMs, futureToleranceMs: 24 * 3_600_000 };
let offset = 0;

function message(patch: Record<string, unknown>) {
  const event = {
    schema_version: 1,
    recording_id: "r1",
    organization_id: "acme",
    member_email: "a@example.com",
    voice_model: "v",
    language_model: null,
    app_name: "app",
    recorded_at: "2026-11-22T10:00:00Z",
    duration_ms: 1,
    word_count: 1,
    voice_processing_ms: null,
    llm_processing_ms: null,
    ...patch,
  };
  return { value: Buffer.from(JSON.stringify(event)), offset: String(offset++) };
}

describe("sortBatch", () => {
  it("groups valid recordings by organization in offset order", () => {
    const sorted = sortBatch(
      [
        message({ recording_id: "a" }),
        message({ recording_id: "b", organization_id: "globex" }),
        message({ recording_id: "c" }),
      ],
      options,
    );
    expect([...sorted.byOrg.keys()]).toEqual(["acme", "globex"]);
    expect(sorted.byOrg.get("acme")?.map((r) => r.event.recording_id)).toEqual(["a", "c"]);
    expect(sorted.rejected).toEqual([]);
  });

  it("keeps the first copy of a recording within a batch, per organization", () => {
    const sorted = sortBatch(
      [
        message({ recording_id: "a", word_count: 1 }),
        message({ recording_id: "a", word_count: 99 }),
        message({ recording_id: "a", organization_id: "globex" }),
      ],
      options,
    );
    expect(sorted.byOrg.get("acme")?.map((r) => r.event.word_count)).toEqual([1]);
    expect(sorted.byOrg.get("globex")).toHaveLength(1);
    expect(sorted.repeatedInBatch).toBe(1);
  });

  it("rejects malformed messages and far-future recordings with their reason", () => {
    const bad = { value: Buffer.from("{oops"), offset: "99" };
    const sorted = sortBatch(
      [
        bad,
        message({ duration_ms: -1 }),
        message({ recording_id: "soon", recorded_at: "2026-11-23T11:59:59Z" }),
        message({ recording_id: "late", recorded_at: "2026-11-23T12:00:01Z" }),
      ],
      options,
    );
    expect(sorted.rejected.map((r) => r.reason)).toEqual([
      expect.stringMatching(/^not valid JSON/),
      expect.stringMatching(/^duration_ms: /),
      "recorded_at: more than 24 hours in the future",
    ]);
    expect(sorted.rejected[0]?.message).toBe(bad);
    expect(sorted.byOrg.get("acme")?.map((r) => r.event.recording_id)).toEqual(["soon"]);
  });

  it("keeps the first copy across chunks of one batch when given the same seen set", () => {
    const seen = new Set<string>();
    sortBatch([message({ recording_id: "x" })], { ...options, seen });
    const second = sortBatch([message({ recording_id: "x" }), message({ recording_id: "y" })], {
      ...options,
      seen,
    });
    expect(second.byOrg.get("acme")?.map((r) => r.event.recording_id)).toEqual(["y"]);
    expect(second.repeatedInBatch).toBe(1);
  });
});
