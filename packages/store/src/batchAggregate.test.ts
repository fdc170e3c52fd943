import type { RecordingCompleted } from "@vu/events";
import { DAY_MS, DEFAULT_RETENTION } from "@vu/time-buckets";
import { describe, expect, it } from "vitest";
import { aggregateBatch, type CountableRecording } from "./batchAggregate";
import { createKeyspace } from "./keyspace";

const keyspace = createKeyspace({ prefix: "t" });
const nowMs = Date.parse("2026-11-22T12:00:00Z");
const options = { keyspace, retention: DEFAULT_RETENTION, dedupeWindowMs: 7 * DAY_MS, nowMs };

function recording(id: string, at: string, patch: Partial<RecordingCompleted> = {}): CountableRecording {
  const event: RecordingCompleted = {
    schema_version: 1,
    recording_id: id,
    organization_id: "acme",
    member_email: "ada@example.com",
    voice_model: "v1",
    language_model: "gpt",
    app_name: "Zoom",
    recorded_at: at,
    duration_ms: 60_000,
    word_count: 100,
    voice_processing_ms: 500,
    llm_processing_ms: 200,
    ...patch,
  };
  return { event, recordedAtMs: Date.parse(at) };
}

describe("aggregateBatch", () => {
  it("folds recordings sharing a block and combination into one cell per tier", () => {
    const payload = aggregateBatch(
      [
        recording("a", "2026-11-20T10:00:05Z"),
        recording("b", "2026-11-20T10:00:55Z", { llm_processing_ms: null, voice_processing_ms: 100 }),
      ],
      options,
    );
    expect(payload.ids).toEqual(["a", "b"]);
    expect(payload.combos).toEqual(['["ada@example.com","v1","gpt","Zoom"]']);
    expect(payload.cells).toEqual([
      ["b:m:202611201000", 1, 2, 200, 120_000, 600, 2, 200, 1],
      ["b:h:202611201000", 1, 2, 200, 120_000, 600, 2, 200, 1],
      ["b:d:202611200000", 1, 2, 200, 120_000, 600, 2, 200, 1],
      ["b:w:202611160000", 1, 2, 200, 120_000, 600, 2, 200, 1],
      ["b:M:202611010000", 1, 2, 200, 120_000, 600, 2, 200, 1],
    ]);
  });

  it("keeps combinations apart, null language model included, and numbers them in order", () => {
    const payload = aggregateBatch(
      [
        recording("a", "2026-11-20T10:00:00Z"),
        recording("b", "2026-11-20T10:00:00Z", { language_model: null }),
        recording("c", "2026-11-20T10:00:00Z"),
      ],
      options,
    );
    expect(payload.combos).toEqual([
      '["ada@example.com","v1","gpt","Zoom"]',
      '["ada@example.com","v1",null,"Zoom"]',
    ]);
    const minuteCells = payload.cells.filter(([suffix]) => suffix.startsWith("b:m:"));
    expect(minuteCells.map((c) => [c[1], c[2]])).toEqual([
      [1, 2],
      [2, 1],
    ]);
  });

  it("skips tiers whose retention has passed and sets expiry only for expiring tiers", () => {
    const old = recording("old", "2026-01-15T08:30:00Z"); // 311 days ago: no minute block
    const payload = aggregateBatch([old, recording("new", "2026-11-22T11:59:00Z")], options);
    const suffixes = payload.cells.map(([s]) => s);
    expect(suffixes.filter((s) => s.startsWith("b:m:"))).toEqual(["b:m:202611221159"]);
    expect(suffixes).toContain("b:h:202601150800");
    const expiring = payload.expire.map(([s]) => s).sort();
    expect(expiring).toEqual(["b:h:202601150800", "b:h:202611221100", "b:m:202611221159"]);
    const minuteExpiry = payload.expire.find(([s]) => s === "b:m:202611221159")?.[1];
    expect(minuteExpiry).toBe(Date.parse("2026-11-22T11:59:00Z") + 35 * DAY_MS + DAY_MS);
  });
});
