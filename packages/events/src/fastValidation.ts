import { z } from "zod";
import { TEXT_LIMITS as MAX, ORGANIZATION_ID, type RecordingCompleted } from "./recordingCompleted";

// The worker's happy path: the checks of recordingCompletedSchema written out for the common case,
// without zod's issue collection and object walk. It accepts exactly what the schema accepts
// (fastValidation.test.ts holds the two to each other on generated inputs) and builds the same
// event; anything it refuses goes through the schema, which names the broken fields.

/** The patterns zod checks member_email and recorded_at against (the test holds them to the schema's). */
export const EMAIL = z.regexes.email;
export const DATETIME = z.regexes.datetime({ offset: true });

/**
 * Code points, as zod counts a string's length: a surrogate pair is one, a lone surrogate one.
 * Only called past `max` UTF-16 units, where the two counts can differ.
 */
function codePoints(v: string): number {
  let count = v.length;
  for (let i = 0; i + 1 < v.length; i++) {
    if ((v.charCodeAt(i) & 0xfc00) === 0xd800 && (v.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      count--;
      i++;
    }
  }
  return count;
}

const fits = (v: string, max: number) => v.length <= max || codePoints(v) <= max;
const isText = (v: unknown, max: number): v is string =>
  typeof v === "string" && v.length >= 1 && fits(v, max);
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
    !isText(r.recording_id, MAX.recording_id) ||
    !isText(r.organization_id, MAX.organization_id) ||
    !ORGANIZATION_ID.test(r.organization_id) ||
    typeof email !== "string" ||
    !fits(email, MAX.member_email) ||
    !EMAIL.test(email) ||
    !isText(r.voice_model, MAX.voice_model) ||
    !(language === null || isText(language, MAX.language_model)) ||
    !isText(r.app_name, MAX.app_name) ||
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
