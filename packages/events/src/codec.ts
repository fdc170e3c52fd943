import type { z } from "zod";
import {
  type RecordingCompleted,
  type RecordingCompletedInput,
  recordingCompletedSchema,
} from "./recordingCompleted";

export type DecodeResult =
  | { ok: true; event: RecordingCompleted; recordedAtMs: number }
  | { ok: false; reason: string };

/** Renders zod issues as `field: message; field: message`, so a rejected event names its fields. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => `${issue.path.length > 0 ? issue.path.join(".") : "(message)"}: ${issue.message}`)
    .join("; ");
}

/** Decodes one Kafka message value. Never throws: a bad message yields a reason for the DLQ. */
export function decodeRecordingCompleted(value: Buffer | string | null): DecodeResult {
  if (value === null) return { ok: false, reason: "empty message (tombstone)" };
  let json: unknown;
  try {
    json = JSON.parse(typeof value === "string" ? value : value.toString("utf8"));
  } catch (error) {
    return { ok: false, reason: `not valid JSON: ${(error as Error).message}` };
  }
  const parsed = recordingCompletedSchema.safeParse(json);
  if (!parsed.success) return { ok: false, reason: describeIssues(parsed.error.issues) };
  return { ok: true, event: parsed.data, recordedAtMs: Date.parse(parsed.data.recorded_at) };
}

/** Validates and serialises an event for Kafka; throws with the offending fields named. */
export function encodeRecordingCompleted(event: RecordingCompletedInput): string {
  const parsed = recordingCompletedSchema.safeParse(event);
  if (!parsed.success) {
    throw new TypeError(`invalid recording.completed event: ${describeIssues(parsed.error.issues)}`);
  }
  return JSON.stringify(parsed.data);
}
