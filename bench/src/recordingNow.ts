import type { RecordingCompletedInput } from "@vu/events";

/** The steady streams (freshness probe, under-ingest producer) send a batch this often. */
export const STREAM_BATCH_INTERVAL_MS = 20;

/** One recording made now, the same each time but for its id: a steady stream's event. */
export function recordingNow(org: string, id: string, memberEmail: string): RecordingCompletedInput {
  return {
    schema_version: 1,
    recording_id: id,
    organization_id: org,
    member_email: memberEmail,
    voice_model: "whisper-large-v3",
    language_model: "gpt-4o-mini",
    app_name: "Zoom",
    recorded_at: new Date().toISOString(),
    duration_ms: 60_000,
    word_count: 150,
    voice_processing_ms: 4_000,
    llm_processing_ms: 900,
  };
}
