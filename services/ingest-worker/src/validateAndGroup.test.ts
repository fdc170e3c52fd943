import { recordingEvent } from "@vu/testkit";
import { describe, expect, it } from "vitest";
import { validateAndGroup } from "./validateAndGroup";

const nowMs = Date.parse("2026-11-22T12:00:00Z");
const options = { nowMs, futureToleranceMs: 24 * 3_600_000 };
let offset = 0;

/** A Kafka message carrying the kit's recording with `patch` over it (any field, even invalid ones). */
function message(patch: Record<string, unknown>) {
  const event = { ...recordingEvent("r1", "2026-11-22T10:00:00Z"), ...patch };
  return { value: Buffer.from(JSON.stringify(event)), offset: String(offset++) };
}

describe("validateAndGroup", () => {
  it("groups valid recordings by organization in offset order", () => {
    const grouped = validateAndGroup(
      [
        message({ recording_id: "a" }),
        message({ recording_id: "b", organization_id: "globex" }),
        message({ recording_id: "c" }),
      ],
      options,
    );
    expect([...grouped.byOrg.keys()]).toEqual(["acme", "globex"]);
    expect(grouped.byOrg.get("acme")?.map((r) => r.event.recording_id)).toEqual(["a", "c"]);
    expect(grouped.rejected).toEqual([]);
  });

  it("keeps the first copy of a recording within a batch, per organization", () => {
    const grouped = validateAndGroup(
      [
        message({ recording_id: "a", word_count: 1 }),
        message({ recording_id: "a", word_count: 99 }),
        message({ recording_id: "a", organization_id: "globex" }),
      ],
      options,
    );
    expect(grouped.byOrg.get("acme")?.map((r) => r.event.word_count)).toEqual([1]);
    expect(grouped.byOrg.get("globex")).toHaveLength(1);
    expect(grouped.repeatedInBatch).toBe(1);
  });

  it("rejects malformed messages and far-future recordings with their reason", () => {
    const bad = { value: Buffer.from("{oops"), offset: "99" };
    const grouped = validateAndGroup(
      [
        bad,
        message({ duration_ms: -1 }),
        message({ recording_id: "soon", recorded_at: "2026-11-23T11:59:59Z" }),
        message({ recording_id: "late", recorded_at: "2026-11-23T12:00:01Z" }),
      ],
      options,
    );
    expect(grouped.rejected.map((r) => r.reason)).toEqual([
      expect.stringMatching(/^not valid JSON/),
      expect.stringMatching(/^duration_ms: /),
      "recorded_at: more than 24 hours in the future",
    ]);
    expect(grouped.rejected[0]?.message).toBe(bad);
    expect(grouped.byOrg.get("acme")?.map((r) => r.event.recording_id)).toEqual(["soon"]);
  });

  it("keeps the first copy across chunks of one batch when given the same seen set", () => {
    const seen = new Set<string>();
    validateAndGroup([message({ recording_id: "x" })], { ...options, seen });
    const second = validateAndGroup([message({ recording_id: "x" }), message({ recording_id: "y" })], {
      ...options,
      seen,
    });
    expect(second.byOrg.get("acme")?.map((r) => r.event.recording_id)).toEqual(["y"]);
    expect(second.repeatedInBatch).toBe(1);
  });
});
