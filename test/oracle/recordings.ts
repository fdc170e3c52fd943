import type { RecordingCompletedInput } from "@vu/events";

/** A recording the service must count, as the oracle keeps it. */
export interface CountedRecording {
  org: string;
  id: string;
  atMs: number;
  member_email: string;
  voice_model: string;
  language_model: string | null;
  app_name: string;
  duration_ms: number;
  word_count: number;
  voice_processing_ms: number | null;
  llm_processing_ms: number | null;
}

/** A message as the worker sees it: the organization key and the valid event it carries, if any. */
export interface StreamedMessage {
  key: string;
  /** null when the message is not a valid v1 event (never counted). */
  event: RecordingCompletedInput | null;
}

/**
 * The recordings that count, per organization, sorted by time. `messages` must be in the order the
 * worker reads them per organization (an organization's messages share one partition, so that is
 * production order): the first copy of an (organization_id, recording_id) that counts stands, and an
 * event more than 24 hours ahead (`recorded_at > acceptedUntilMs`) is never counted, so a later
 * copy of it may be.
 */
export function countRecordings(
  messages: Iterable<StreamedMessage>,
  acceptedUntilMs: number,
): Map<string, CountedRecording[]> {
  const seen = new Set<string>();
  const byOrg = new Map<string, CountedRecording[]>();
  for (const { event } of messages) {
    if (event === null) continue;
    const atMs = Date.parse(event.recorded_at);
    if (Number.isNaN(atMs)) throw new Error(`workload bug: unparseable recorded_at ${event.recorded_at}`);
    if (atMs > acceptedUntilMs) continue;
    const identity = `${event.organization_id}\u0000${event.recording_id}`;
    if (seen.has(identity)) continue;
    seen.add(identity);
    const list = byOrg.get(event.organization_id) ?? [];
    byOrg.set(event.organization_id, list);
    list.push({
      org: event.organization_id,
      id: event.recording_id,
      atMs,
      member_email: event.member_email.toLowerCase(),
      voice_model: event.voice_model,
      language_model: event.language_model,
      app_name: event.app_name,
      duration_ms: event.duration_ms,
      word_count: event.word_count,
      voice_processing_ms: event.voice_processing_ms,
      llm_processing_ms: event.llm_processing_ms,
    });
  }
  for (const list of byOrg.values()) list.sort((a, b) => a.atMs - b.atMs);
  return byOrg;
}
