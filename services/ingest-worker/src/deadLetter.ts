import { DLQ_HEADERS, undecodableBatchOf } from "@vu/events";
import type { IHeaders, KafkaMessage, Message } from "kafkajs";

export interface DeadLetterSource {
  topic: string;
  partition: number;
}

/** A message refused by the worker, and why. */
export interface DeadLetter {
  message: KafkaMessage;
  reason: string;
}

/** A reason is a diagnosis, not a payload: a long one (zod on a huge message) is cut to this. */
const MAX_REASON_CHARS = 1_000;
/** Bytes a record batch and a record add around keys, values and headers (Kafka's v2 format, upper bounds). */
const BATCH_OVERHEAD = 61;
const RECORD_OVERHEAD = 32;
const HEADER_OVERHEAD = 10;

/** The first words of a reason, as a low-cardinality metric label ("duration_ms", "not valid JSON"). */
export function reasonKind(reason: string): string {
  const field = /^([a-z_.]+):/.exec(reason);
  if (field?.[1]) return field[1];
  return reason.startsWith("not valid JSON") ? "invalid_json" : "other";
}

const byteLength = (value: Buffer | string | null | undefined) =>
  value == null ? 0 : typeof value === "string" ? Buffer.byteLength(value) : value.length;

function headerBytes(headers: IHeaders | undefined): number {
  let total = 0;
  for (const [name, value] of Object.entries(headers ?? {})) {
    const values = Array.isArray(value) ? value : [value];
    for (const one of values) total += HEADER_OVERHEAD + Buffer.byteLength(name) + byteLength(one);
  }
  return total;
}

/** An upper bound of what one record adds to a produce request's record batch. */
export function recordBytes(record: Message): number {
  return RECORD_OVERHEAD + byteLength(record.key) + byteLength(record.value) + headerBytes(record.headers);
}

/**
 * The record for one dead letter: the original key, value and headers, unchanged, plus why and
 * where from, so it can be inspected and replayed after a fix. A record that would not fit in
 * `maxRecordBytes` keeps only the head of its value, and says so in `x-dlq-truncated`.
 */
export function deadLetterRecord(
  letter: DeadLetter,
  source: DeadLetterSource,
  maxRecordBytes: number,
): Message {
  const { message, reason } = letter;
  const batch = undecodableBatchOf(message);
  const record: Message = {
    key: message.key,
    value: message.value,
    headers: {
      ...message.headers,
      [DLQ_HEADERS.reason]:
        reason.length > MAX_REASON_CHARS ? `${reason.slice(0, MAX_REASON_CHARS)}…` : reason,
      [DLQ_HEADERS.sourceTopic]: source.topic,
      [DLQ_HEADERS.sourcePartition]: String(source.partition),
      [DLQ_HEADERS.sourceOffset]: message.offset,
      ...(batch === undefined ? {} : { [DLQ_HEADERS.sourceFirstOffset]: batch.firstOffset }),
    },
  };
  const excess = recordBytes(record) - maxRecordBytes;
  if (excess <= 0) return record;
  return truncated(record, byteLength(message.value) - excess - 32);
}

/** `record` with only the first `keep` bytes of its value (none when `keep` ≤ 0). */
export function truncated(record: Message, keep: number): Message {
  const value = record.value == null ? null : Buffer.from(record.value);
  return {
    ...record,
    value: value === null || keep <= 0 ? null : value.subarray(0, keep),
    headers: { ...record.headers, [DLQ_HEADERS.truncated]: String(value?.length ?? 0) },
  };
}

/** Cuts records into produce requests of at most `maxRequestBytes` each, in order. */
export function packRequests(records: readonly Message[], maxRequestBytes: number): Message[][] {
  const requests: Message[][] = [];
  let current: Message[] = [];
  let bytes = BATCH_OVERHEAD;
  for (const record of records) {
    const size = recordBytes(record);
    if (current.length > 0 && bytes + size > maxRequestBytes) {
      requests.push(current);
      current = [];
      bytes = BATCH_OVERHEAD;
    }
    current.push(record);
    bytes += size;
  }
  if (current.length > 0) requests.push(current);
  return requests;
}

/** The largest record batch that fits a topic whose `max.message.bytes` is `maxMessageBytes`. */
export const requestBudget = (maxMessageBytes: number) => maxMessageBytes - BATCH_OVERHEAD - 1024;
