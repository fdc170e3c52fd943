import { z } from "zod";
import { ORGANIZATION_ID, type RecordingCompleted } from "./recordingCompleted";

// The worker's happy path: the checks of recordingCompletedSchema written out for the common case,
// without zod's issue collection and object walk. It accepts exactly what the schema accepts
// (fastValidation.test.ts holds the two to each other on generated inputs) and builds the same
// event; anything it refuses goes through the schema, which names the broken fields.

const EMAIL = z.regexes.email;
const DATETIME = z.regexes.datetime({ offset: true });

const isText = (v: unknown, max: number): v is string =>
  typeof v === "string" && v.length >= 1 && v.length <= max;
const isCount = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v >= 0;
const isOptionalCount = (v: unknown): v is number | null => v === null || isCount(v);

/** The event a message's JSON is, when every field is as the contract wants; otherwise undefined. */
export function acceptedWithoutZod(json: unknown): RecordingCompleted | undefined {
  if (typeof json !== "object" || json === null || Array.isArray(json)) return undefined;
  const r = json as Record<string, unknown>;
  const email = r.member_email;
  const language = r.language_model;
  const voiceMs = r.voice_processing_ms;
  const llmMs = r.llm_processing_ms;
  if (
    r.schema_version !== 1 ||
    !isText(r.recording_id, 128) ||
    !isText(r.organization_id, 128) ||
    !ORGANIZATION_ID.test(r.organization_id) ||
    typeof email !== "string" ||
    email.length > 254 ||
    !EMAIL.test(email) ||
    !isText(r.voice_model, 200) ||
    !(language === null || isText(language, 200)) ||
    !isText(r.app_name, 200) ||
    typeof r.recorded_at !== "string" ||
    !DATETIME.test(r.recorded_at) ||
    !isCount(r.duration_ms) ||
    !isCount(r.word_count) ||
    !isOptionalCount(voiceMs) ||
    !isOptionalCount(llmMs)
  ) {
    return undefined;
  }
  return {
    schema_version: 1,
    recording_id: r.recording_id,
    organization_id: r.organization_id,
    member_email: email.toLowerCase(),
    voice_model: r.voice_model,
    language_model: language,
    app_name: r.app_name,
    recorded_at: r.recorded_at,
    duration_ms: r.duration_ms,
    word_count: r.word_count,
    voice_processing_ms: voiceMs,
    llm_processing_ms: llmMs,
  };
}
