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

  it.each([
    ["a lone high surrogate at the end", "app_name", '"Zoom\\ud83d"'],
    ["a lone low surrogate", "member_email", '"\\udc00a@x.io"'],
    ["a reversed pair", "voice_model", '"v\\ude00\\ud83d"'],
    ["an escape in capitals", "app_name", '"Zoom\\uD83D"'],
  ])("rejects %s as invalid_unicode, naming the field", (_case, field, jsonText) => {
    const text = JSON.stringify({ ...valid, [field]: "PLACEHOLDER" }).replace('"PLACEHOLDER"', jsonText);
    const result = decodeRecordingCompleted(Buffer.from(text, "utf8"));
    expect(result.ok === false && result.reason).toBe(
      `invalid_unicode: ${field} holds a lone surrogate (a string cut inside a character)`,
    );
  });

  it("rejects a lone surrogate in a string given as text, where no escape shows it", () => {
    const text = JSON.stringify({ ...valid, app_name: "PLACEHOLDER" }).replace("PLACEHOLDER", "Zoom\ud83d");
    const result = decodeRecordingCompleted(text);
    expect(result.ok === false && result.reason).toBe(
      "invalid_unicode: app_name holds a lone surrogate (a string cut inside a character)",
    );
  });

  it("accepts surrogate pairs written as escapes, NUL characters and a surrogate in an unknown field", () => {
    const text = JSON.stringify({ ...valid, app_name: "PLACEHOLDER", extra: "PLACEHOLDER" })
      .replace('"PLACEHOLDER"', '"Zoom \\ud83d\\ude00 \\u0000"')
      .replace('"PLACEHOLDER"', '"\\ud83d"');
    const result = decodeRecordingCompleted(Buffer.from(text, "utf8"));
    expect(result.ok && result.event.app_name).toBe("Zoom \u{1F600} \u0000");
  });

  it("rejects bytes that are not UTF-8 instead of replacing them", () => {
    const text = Buffer.from(JSON.stringify({ ...valid, app_name: "Zo_m" }), "utf8");
    for (const bad of [[0xff], [0xc3], [0xed, 0xa0, 0xbd]]) {
      const at = text.indexOf("_");
      const bytes = Buffer.concat([text.subarray(0, at), Buffer.from(bad), text.subarray(at + 1)]);
      const result = decodeRecordingCompleted(bytes);
      expect(result.ok === false && result.reason).toBe("invalid_unicode: the message is not valid UTF-8");
    }
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
  it("refuses a string with a lone surrogate, so a producer of ours never writes one", () => {
    expect(() => encodeRecordingCompleted({ ...valid, app_name: "Zoom\ud83d" })).toThrow(
      /invalid_unicode: app_name/,
    );
  });

  it("round-trips a valid event and refuses an invalid one", () => {
    const decoded = decodeRecordingCompleted(encodeRecordingCompleted(valid));
    expect(decoded.ok).toBe(true);
    expect(() => encodeRecordingCompleted({ ...valid, duration_ms: -5 })).toThrow(/duration_ms/);
  });
});
