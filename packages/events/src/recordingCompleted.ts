import { z } from "zod";
import type { DimensionValues } from "./vocabulary";

/** Kafka topic names of docs/contract.md §1; both are configurable where they are used. */
export const RECORDINGS_TOPIC = "recordings.completed";
export const RECORDINGS_DLQ_TOPIC = "recordings.completed.dlq";
/**
 * The compacted topic of API token records (tokenRecords.ts): the durable copy of the tokens Redis
 * serves, keyed by each token's SHA-256, from which a lost Redis is restored.
 */
export const TOKENS_TOPIC = "usage-stats.tokens";

/** A `recorded_at` further ahead than this is never counted (docs/contract.md §1; the worker's default). */
export const FUTURE_TOLERANCE_HOURS = 24;

/** What an organization_id may hold. */
export const ORGANIZATION_ID = /^[A-Za-z0-9._:-]+$/;
/** The most characters (Unicode code points, as zod counts them) each text field may hold. */
export const TEXT_LIMITS = {
  recording_id: 128,
  organization_id: 128,
  member_email: 254,
  voice_model: 200,
  language_model: 200,
  app_name: 200,
} as const;

const text = (max: number) => z.string().min(1).max(max);
const count = z.int().min(0);

/**
 * `recording.completed` v1 (docs/contract.md §1). Unknown fields are stripped, not rejected, so producers
 * can add fields before consumers know them. `member_email` is lower-cased here, once, so every
 * consumer compares the same value.
 */
export const recordingCompletedSchema = z.object({
  schema_version: z.literal(1),
  recording_id: text(TEXT_LIMITS.recording_id),
  organization_id: z
    .string()
    .min(1)
    .max(TEXT_LIMITS.organization_id)
    .regex(ORGANIZATION_ID, "must contain only letters, digits and . _ : -"),
  member_email: z
    .email()
    .max(TEXT_LIMITS.member_email)
    .transform((email) => email.toLowerCase()),
  voice_model: text(TEXT_LIMITS.voice_model),
  language_model: text(TEXT_LIMITS.language_model).nullable(),
  app_name: text(TEXT_LIMITS.app_name),
  recorded_at: z.iso.datetime({ offset: true }),
  duration_ms: count,
  word_count: count,
  voice_processing_ms: count.nullable(),
  llm_processing_ms: count.nullable(),
});

/** What a producer sends (member_email in any case). */
export type RecordingCompletedInput = z.input<typeof recordingCompletedSchema>;
/** What a consumer gets after validation. */
export type RecordingCompleted = z.output<typeof recordingCompletedSchema>;

/** The recording's dimension values, in `DIMENSIONS` order. */
export function dimensionValues(event: RecordingCompleted): DimensionValues {
  return [event.member_email, event.voice_model, event.language_model, event.app_name];
}
