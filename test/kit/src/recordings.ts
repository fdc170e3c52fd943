import type { RecordingCompleted } from "@vu/events";
import type { CountableRecording } from "@vu/store";

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
