import type { RecordingCompleted } from "@vu/events";
import type { CountableRecording } from "@vu/store";
import { LAYOUT_RULE } from "@vu/store/cell-format";
import { MINUTE_MS } from "@vu/time-buckets";

/**
 * A valid `recording.completed` event with plain defaults (organization `acme`, one member, one
 * minute, 150 words); tests override what they are about.
 */
export function recordingEvent(
  id: string,
  recordedAt: string,
  patch: Partial<RecordingCompleted> = {},
): RecordingCompleted {
  return {
    schema_version: 1,
    recording_id: id,
    organization_id: "acme",
    member_email: "ada@example.com",
    voice_model: "whisper",
    language_model: "gpt",
    app_name: "Zoom",
    recorded_at: recordedAt,
    duration_ms: 60_000,
    word_count: 150,
    voice_processing_ms: 1_000,
    llm_processing_ms: 2_000,
    ...patch,
  };
}

/** The same event as the store's writer takes it (already validated, its instant read). */
export function recording(
  id: string,
  recordedAt: string,
  patch: Partial<RecordingCompleted> = {},
): CountableRecording {
  const event = recordingEvent(id, recordedAt, patch);
  return { event, recordedAtMs: Date.parse(event.recorded_at) };
}

/**
 * The fewest recordings that place every tier of an organization projected under the store's
 * layout rule: 32 a minute (`perBlock`) over the rule's least span, a day. Fewer, or as many
 * within a minute, leave its minutes in containers.
 */
export const DENSE_RECORDINGS = (LAYOUT_RULE.perBlock * LAYOUT_RULE.leastSpanMs) / MINUTE_MS;

/** The times of DENSE_RECORDINGS recordings spread evenly over the day from `startIso`. */
export function denseBurstTimes(startIso: string): string[] {
  const start = Date.parse(startIso);
  return Array.from({ length: DENSE_RECORDINGS }, (_, i) =>
    new Date(start + Math.floor((i * LAYOUT_RULE.leastSpanMs) / DENSE_RECORDINGS)).toISOString(),
  );
}
