import { decodeRecordingCompleted, undecodableBatchOf, undecodableReason } from "@vu/events";
import type { CountableRecording } from "@vu/store";

/** The part of a Kafka message this reads. */
export interface IncomingMessage {
  value: Buffer | null;
  offset: string;
  /** Kafka's timestamp in ms (the broker's append time on the topics this project creates). */
  timestamp: string;
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
  /**
   * A `recorded_at` further ahead of its message's Kafka timestamp than this is rejected
   * (docs/contract.md §1: 24 hours). The log's own time, never the worker's clock, so a replay or a
   * rebuild refuses exactly what the live run refused.
   */
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

  for (const message of messages) {
    const undecodable = undecodableBatchOf(message);
    if (undecodable !== undefined) {
      rejected.push({ message, reason: undecodableReason(undecodable) });
      continue;
    }
    const decoded = decodeRecordingCompleted(message.value);
    if (!decoded.ok) {
      rejected.push({ message, reason: decoded.reason });
      continue;
    }
    const { event, recordedAtMs } = decoded;
    const latest = latestAllowed(message, options.futureToleranceMs);
    if (latest === undefined) {
      rejected.push({ message, reason: UNTIMED });
      continue;
    }
    if (recordedAtMs > latest) {
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

/**
 * A message without a usable Kafka timestamp (none, or negative: a client that set -1) on a topic
 * stamped by its producers (`CreateTime`): nothing in the log says when it was written, and any
 * clock would make a replay judge it otherwise than the live run did.
 */
const UNTIMED = "recorded_at: cannot be checked, the message carries no Kafka timestamp";

/** The latest `recorded_at` a message may carry: its Kafka timestamp plus the tolerance; undefined without one. */
function latestAllowed(message: IncomingMessage, toleranceMs: number): number | undefined {
  const at = Number(message.timestamp);
  return message.timestamp !== "" && Number.isSafeInteger(at) && at >= 0 ? at + toleranceMs : undefined;
}
