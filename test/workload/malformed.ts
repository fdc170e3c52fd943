import type { RecordingCompletedInput } from "@vu/events";
import type { Random } from "../support/random";

/** Each turns a valid event into a message the contract says is never counted. */
const BREAKERS: ReadonlyArray<(event: RecordingCompletedInput) => unknown> = [
  (e) => ({ ...e, schema_version: 2 }),
  (e) => ({ ...e, duration_ms: -1 }),
  (e) => ({ ...e, word_count: 1.5 }),
  (e) => ({ ...e, member_email: "not-an-email" }),
  (e) => ({ ...e, recorded_at: "2025-06-01T10:00:00" }),
  (e) => ({ ...e, recorded_at: "yesterday" }),
  (e) => ({ ...e, app_name: "" }),
  (e) => ({ ...e, voice_model: "v".repeat(201) }),
  (e) => ({ ...e, organization_id: `${e.organization_id} with spaces` }),
  (e) => ({ ...e, language_model: 42 }),
  (e) => ({ ...e, llm_processing_ms: "1200" }),
  (e) => {
    const { recording_id: _dropped, ...rest } = e;
    return rest;
  },
  (e) => [e],
  () => null,
];

/**
 * A malformed message body for the raw producer: a tombstone (null), broken JSON or a broken event.
 * None of them is ever counted.
 */
export function malformedMessage(event: RecordingCompletedInput, random: Random): string | null {
  const roll = random.float();
  if (roll < 0.03) return null;
  if (roll < 0.1) return `${JSON.stringify(event).slice(0, -7)}`;
  if (roll < 0.15) return "\u0000\u0001 binary garbage";
  return JSON.stringify(random.pick(BREAKERS)(event));
}
