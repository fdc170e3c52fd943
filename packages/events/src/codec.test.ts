import { describe, expect, it } from "vitest";
import { decodeRecordingCompleted, encodeRecordingCompleted } from "./codec";
import type { RecordingCompletedInput } from "./recordingCompleted";

const valid: RecordingCompletedInput = {
  schema_version: 1,
  recording_id: "rec-1",
  organization_id: "acme.eu:1",
  member_email: "Ada@Example.COM",
  voice_model: "whisper-large",
  language_model: null,
  app_name: "Zoom — Bürö",
  recorded_at: "2026-11-01T10:00:00.123456+05:30",
  duration_ms: 61_000,
  word_count: 150,
  voice_processing_ms: 900,
  llm_processing_ms: null,
};

const decode = (value: unknown) => decodeRecordingCompleted(JSON.stringify(value));

describe("decodeRecordingCompleted", () => {
  it("accepts a valid event, lower-cases the e-mail and reads the instant with its offset", () => {
    const result = decode({ ...valid, future_field: { nested: true } });
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.event.member_email).toBe("ada@example.com");
    expect(result.recordedAtMs).toBe(Date.parse("2026-11-01T04:30:00.123Z"));
    expect(result.event).not.toHaveProperty("future_field");
  });

  it.each([
    ["member_email", { member_email: "not-an-email" }],
    ["organization_id", { organization_id: "acme/eu" }],
    ["recorded_at", { recorded_at: "2026-11-01T10:00:00" }],
    ["duration_ms", { duration_ms: -1 }],
    ["word_count", { word_count: 1.5 }],
    ["schema_version", { schema_version: 2 }],
    ["recording_id", { recording_id: "x".repeat(129) }],
    ["app_name", { app_name: "" }],
    ["llm_processing_ms", { llm_processing_ms: "12" }],
  ])("rejects a bad %s with a reason naming the field", (field, patch) => {
    const result = decode({ ...valid, ...patch });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.reason).toMatch(new RegExp(`^${field}: `));
  });

  it("rejects a missing field, invalid JSON and tombstones", () => {
    const { voice_model: _omitted, ...withoutVoiceModel } = valid;
    const missing = decode(withoutVoiceModel);
    expect(missing.ok === false && missing.reason).toMatch(/^voice_model: /);
    const garbage = decodeRecordingCompleted("{not json");
    expect(garbage.ok === false && garbage.reason).toMatch(/^not valid JSON/);
    expect(decodeRecordingCompleted(null).ok).toBe(false);
  });
});

describe("encodeRecordingCompleted", () => {
  it("round-trips a valid event and refuses an invalid one", () => {
    const decoded = decodeRecordingCompleted(encodeRecordingCompleted(valid));
    expect(decoded.ok).toBe(true);
    expect(() => encodeRecordingCompleted({ ...valid, duration_ms: -5 })).toThrow(/duration_ms/);
  });
});
