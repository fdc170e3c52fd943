import { decodeRecordingCompleted } from "@vu/events";
import type { CountableRecording } from "@vu/store";

/** The part of a Kafka message this reads. */
export interface IncomingMessage {
  value: Buffer | null;
  offset: string;
}

export interface Rejected<M> {
  message: M;
  reason: string;
}

/** A valid recording and the message it came in, to dead-letter should the store refuse it. */
export interface SourcedRecording<M> extends CountableRecording {
  source: M;
}

export interface GroupedBatch<M> {
  /** Valid recordings per organization, in offset order, each (org, recording_id) once. */
  byOrg: Map<string, Array<SourcedRecording<M>>>;
  rejected: Array<Rejected<M>>;
  /** Copies of a recording already earlier in this same batch. */
  repeatedInBatch: number;
}

export interface ValidateAndGroupOptions {
  nowMs: number;
  /** A `recorded_at` further ahead than this is rejected (docs/contract.md §1: 24 hours). */
  futureToleranceMs: number;
  /** Recordings already taken from earlier chunks of the same batch; filled in by this call. */
  seen?: Set<string>;
}

/**
 * Decodes and validates one partition's batch (a chunk of it), drops repeats of a recording, and
 * groups the countable recordings by organization; what fails validation is rejected, with its
 * reason, for the dead-letter topic. Within the batch the first copy of a recording wins, as it would across
 * batches: the store's dedupe keeps whichever was counted first.
 */
export function validateAndGroup<M extends IncomingMessage>(
  messages: readonly M[],
  options: ValidateAndGroupOptions,
): GroupedBatch<M> {
  const byOrg = new Map<string, Array<SourcedRecording<M>>>();
  const seen = options.seen ?? new Set<string>();
  const rejected: Array<Rejected<M>> = [];
  let repeatedInBatch = 0;
  const latestAllowed = options.nowMs + options.futureToleranceMs;

  for (const message of messages) {
    const decoded = decodeRecordingCompleted(message.value);
    if (!decoded.ok) {
      rejected.push({ message, reason: decoded.reason });
      continue;
    }
    const { event, recordedAtMs } = decoded;
    if (recordedAtMs > latestAllowed) {
      rejected.push({
        message,
        reason: `recorded_at: more than ${options.futureToleranceMs / 3_600_000} hours in the future`,
      });
      continue;
    }
    // Organization ids cannot contain a space, so this pair is unambiguous.
    const identity = `${event.organization_id} ${event.recording_id}`;
    if (seen.has(identity)) {
      repeatedInBatch++;
      continue;
    }
    seen.add(identity);
    const recording = { event, recordedAtMs, offset: message.offset, source: message };
    const list = byOrg.get(event.organization_id);
    if (list) list.push(recording);
    else byOrg.set(event.organization_id, [recording]);
  }
  return { byOrg, rejected, repeatedInBatch };
}
