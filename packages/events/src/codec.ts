import type { z } from "zod";
import { acceptedWithoutZod } from "./fastValidation";
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

/** Refuses bytes that are not UTF-8 instead of replacing them with U+FFFD, as `toString` would. */
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** Decodes one Kafka message value. Never throws: a bad message yields a reason for the DLQ. */
export function decodeRecordingCompleted(value: Buffer | string | null): DecodeResult {
  if (value === null) return { ok: false, reason: "empty message (tombstone)" };
  let text: string;
  try {
    text = typeof value === "string" ? value : strictUtf8.decode(value);
  } catch {
    return { ok: false, reason: "invalid_unicode: the message is not valid UTF-8" };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, reason: `not valid JSON: ${(error as Error).message}` };
  }
  // Text decoded from bytes holds a lone surrogate only where JSON escapes one (`\ud83d`): most
  // messages have no escape at all, and skip the field-by-field check.
  const broken = typeof value === "string" || text.includes("\\u") ? illFormedField(json) : undefined;
  if (broken !== undefined) return { ok: false, reason: invalidUnicodeReason(broken) };
  const event = acceptedWithoutZod(json);
  if (event !== undefined) return { ok: true, event, recordedAtMs: Date.parse(event.recorded_at) };
  const parsed = recordingCompletedSchema.safeParse(json);
  if (!parsed.success) return { ok: false, reason: describeIssues(parsed.error.issues) };
  return { ok: true, event: parsed.data, recordedAtMs: Date.parse(parsed.data.recorded_at) };
}

const invalidUnicodeReason = (field: string) =>
  `invalid_unicode: ${field} holds a lone surrogate (a string cut inside a character)`;

/** A lone UTF-16 surrogate: what `\ud83d` in JSON text becomes when no low surrogate follows. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * The first field of the contract whose string is not well-formed Unicode (docs/contract.md §1). Such a
 * string cannot be stored as UTF-8 without changing it, so the event is refused as a whole.
 */
function illFormedField(json: unknown): string | undefined {
  if (typeof json !== "object" || json === null) return undefined;
  const record = json as Record<string, unknown>;
  for (const field of Object.keys(recordingCompletedSchema.shape)) {
    const value = record[field];
    if (typeof value === "string" && LONE_SURROGATE.test(value)) return field;
  }
  return undefined;
}

/** Validates and serialises an event for Kafka; throws with the offending fields named. */
export function encodeRecordingCompleted(event: RecordingCompletedInput): string {
  const broken = illFormedField(event);
  if (broken !== undefined) {
    throw new TypeError(`invalid recording.completed event: ${invalidUnicodeReason(broken)}`);
  }
  const parsed = recordingCompletedSchema.safeParse(event);
  if (!parsed.success) {
    throw new TypeError(`invalid recording.completed event: ${describeIssues(parsed.error.issues)}`);
  }
  return JSON.stringify(parsed.data);
}
