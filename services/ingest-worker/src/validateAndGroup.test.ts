import { recordingEvent } from "@vu/testkit";
import { describe, expect, it } from "vitest";
import { validateAndGroup } from "./validateAndGroup";

const nowMs = Date.parse("2026-11-22T12:00:00Z");
const options = { futureToleranceMs: 24 * 3_600_000 };
let offset = 0;

/** A Kafka message carrying the kit's recording with `patch` over it (any field, even invalid ones). */
function message(patch: Record<string, unknown>) {
  const event = { ...recordingEvent("r1", "2026-11-22T10:00:00Z"), ...patch };
  return { value: Buffer.from(JSON.stringify(event)), offset: String(offset++), timestamp: String(nowMs) };
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
    const bad = { value: Buffer.from("{oops"), offset: "99", timestamp: String(nowMs) };
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

  it("measures the future from each message's Kafka timestamp, not from any clock", () => {
    const at = (iso: string, recordedAt: string, id: string) => ({
      ...message({ recording_id: id, recorded_at: recordedAt }),
      timestamp: String(Date.parse(iso)),
    });
    const grouped = validateAndGroup(
      [
        // Written a day later than the others: 30 h after the rest is within 24 h of it.
        at("2026-11-23T12:00:00Z", "2026-11-23T18:00:00Z", "written-later"),
        at("2026-11-22T12:00:00Z", "2026-11-23T18:00:00Z", "too-early"),
        // No timestamp in the log (a producer that set -1): nothing to measure against, any clock
        // would judge it differently on a replay, so it is refused, whatever it says.
        { ...message({ recording_id: "untimed", recorded_at: "2026-11-22T10:00:00Z" }), timestamp: "-1" },
      ],
      options,
    );
    expect(grouped.byOrg.get("acme")?.map((r) => r.event.recording_id)).toEqual(["written-later"]);
    expect(grouped.rejected.map((r) => r.reason)).toEqual([
      "recorded_at: more than 24 hours in the future",
      "recorded_at: cannot be checked, the message carries no Kafka timestamp",
    ]);
  });

  it("rejects an undecodable record batch's marker with its offsets and codec, never decoding it", () => {
    const marker = {
      value: Buffer.from(JSON.stringify(recordingEvent("inside", "2026-11-22T10:00:00Z"))),
      offset: "41",
      timestamp: String(nowMs),
      undecodable: { firstOffset: "30", lastOffset: "41", codec: "zstd", reason: "bad block" },
    };
    const grouped = validateAndGroup([marker, message({ recording_id: "after" })], options);
    expect(grouped.rejected).toEqual([
      {
        message: marker,
        reason:
          "undecodable_batch: the zstd record batch at offsets 30-41 could not be decoded (bad block); " +
          "its records are not counted",
      },
    ]);
    expect(grouped.byOrg.get("acme")?.map((r) => r.event.recording_id)).toEqual(["after"]);
  });
});
