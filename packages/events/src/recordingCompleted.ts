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

const text = (max: number) => z.string().min(1).max(max);
const count = z.int().min(0);

/**
 * `recording.completed` v1 (docs/contract.md §1). Unknown fields are stripped, not rejected, so producers
 * can add fields before consumers know them. `member_email` is lower-cased here, once, so every
 * consumer compares the same value.
 */
export const recordingCompletedSchema = z.object({
  schema_version: z.literal(1),
  recording_id: text(128),
  organization_id: z
    .string()
    .min(1)
    .max(128)
    .regex(ORGANIZATION_ID, "must contain only letters, digits and . _ : -"),
  member_email: z
    .email()
    .max(254)
    .transform((email) => email.toLowerCase()),
  voice_model: text(200),
  language_model: text(200).nullable(),
  app_name: text(200),
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
