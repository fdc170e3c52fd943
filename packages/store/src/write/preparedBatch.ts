import type { BatchPayload, CountableRecording } from "./batchAggregate";

export interface ApplyResult {
  counted: number;
  /** Copies of recordings counted before (by recording id). */
  duplicates: number;
  /** Recordings whose messages this organization had already applied (by offset: a replay). */
  replayed: number;
}

/**
 * Where a batch comes from in the log: its organization's messages of one partition, every one
 * of them up to `throughOffset` (the recordings carry their own offsets). The apply script keeps
 * the offset with the sums, so a replay of any length applies nothing twice.
 */
export interface BatchOrigin {
  /** `partitionKey(topic, partition)`. */
  partition: string;
  throughOffset: string;
}

/**
 * One organization's recordings, aggregated and encoded for the apply script (no I/O yet). `R`
 * lets a caller keep what it attached to each recording (the worker: its Kafka message).
 */
export interface PreparedBatch<R extends CountableRecording = CountableRecording> {
  readonly org: string;
  /** The layout it is laid out for (blockPlacement.ts): the apply script refuses another. */
  readonly layout: string;
  readonly recordings: readonly R[];
  readonly origin: BatchOrigin | undefined;
  readonly extent: BatchPayload["extent"];
  readonly encoded: Buffer;
}

/** The recordings but those at `oneBasedIndexes` (as the apply script names them). */
export function withoutIndexes<R>(recordings: readonly R[], oneBasedIndexes: readonly number[]): R[] {
  const drop = new Set(oneBasedIndexes);
  return recordings.filter((_, i) => !drop.has(i + 1));
}

export /** The lowest offset among the batch's recordings; an empty batch starts at its end. */
function firstOffset(recordings: readonly CountableRecording[], origin: BatchOrigin): string {
  let first = origin.throughOffset;
  for (const { offset } of recordings) {
    if (offset === undefined)
      throw new TypeError("a recording of a batch with an origin must carry its offset");
    if (Number(offset) < Number(first)) first = offset;
  }
  return first;
}
