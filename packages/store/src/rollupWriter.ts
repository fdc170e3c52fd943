import { DIMENSIONS } from "@vu/events";
import { DEFAULT_RETENTION, type Retention } from "@vu/time-buckets";
import { aggregateBatch, type BatchPayload, type CountableRecording } from "./batchAggregate";
import { encodeBatch } from "./batchEncoding";
import type { Keyspace } from "./keyspace";
import type { RedisClient } from "./redisClient";
import { isTransientRedisError } from "./redisErrors";
import { type ApplyBatchReply, registerScripts } from "./scripts";
import { StoreError } from "./storeError";

export interface RollupWriterOptions {
  redis: RedisClient;
  keyspace: Keyspace;
  retention?: Retention;
  /** How long a counted recording id blocks later copies (CONTRACT §1: 7 days by default). */
  dedupeWindowMs: number;
  now?: () => number;
}

export interface ApplyResult {
  counted: number;
  duplicates: number;
}

/**
 * One organization's recordings, aggregated and encoded for the apply script (no I/O yet). `R`
 * lets a caller keep what it attached to each recording (the worker: its Kafka message).
 */
export interface PreparedBatch<R extends CountableRecording = CountableRecording> {
  readonly org: string;
  readonly recordings: readonly R[];
  readonly seen: BatchPayload["seen"];
  readonly extent: BatchPayload["extent"];
  readonly encoded: Buffer;
}

export interface RollupWriter {
  /**
   * Counts one organization's recordings (ids unique within the call) into generation
   * `generation`, atomically and exactly once: ids already counted within the dedupe window are
   * dropped, whatever their other fields say.
   */
  apply(generation: number, org: string, recordings: readonly CountableRecording[]): Promise<ApplyResult>;
  /**
   * The CPU half of `apply`: lets a caller prepare the next batch while Redis runs the previous
   * one. Retention and the dedupe window are taken at the time of preparing.
   */
  prepare<R extends CountableRecording>(org: string, recordings: readonly R[]): PreparedBatch<R>;
  /**
   * The I/O half: the script call is written to Redis before this returns its promise. Fails
   * with a `StoreError` whose `retriable` says whether the same call may succeed later; a failed
   * call has written nothing.
   */
  applyPrepared<R extends CountableRecording>(
    generation: number,
    batch: PreparedBatch<R>,
  ): Promise<ApplyResult>;
}

export function createRollupWriter(options: RollupWriterOptions): RollupWriter {
  const { redis, keyspace, dedupeWindowMs } = options;
  const retention = options.retention ?? DEFAULT_RETENTION;
  const now = options.now ?? Date.now;
  registerScripts(redis);

  function prepare<R extends CountableRecording>(org: string, recordings: readonly R[]): PreparedBatch<R> {
    const payload = aggregateBatch(recordings, { keyspace, retention, dedupeWindowMs, nowMs: now() });
    return { org, recordings, seen: payload.seen, extent: payload.extent, encoded: encodeBatch(payload) };
  }

  async function call(
    generation: number,
    batch: PreparedBatch<CountableRecording>,
  ): Promise<ApplyBatchReply> {
    const { org, seen, extent } = batch;
    const keys = [
      keyspace.orgBase(generation, org),
      keyspace.combos(generation, org),
      ...DIMENSIONS.map((d) => keyspace.dimension(generation, org, d)),
      keyspace.extent(generation, org),
    ];
    try {
      return await redis.vuApplyBatch(
        ...keys,
        seen[0],
        seen[1],
        String(seen[2]),
        batch.encoded,
        String(extent[0]),
        String(extent[1]),
      );
    } catch (cause) {
      throw new StoreError("applying a batch to Redis failed", {
        retriable: isTransientRedisError(cause),
        cause,
        context: { org, recordings: batch.recordings.length },
      });
    }
  }

  async function applyPrepared<R extends CountableRecording>(
    generation: number,
    prepared: PreparedBatch<R>,
  ): Promise<ApplyResult> {
    let batch = prepared;
    let duplicates = 0;
    // A reply of duplicates wrote nothing; dropping them and calling again converges because
    // ids only ever become counted, never uncounted, within the window.
    while (batch.recordings.length > 0) {
      const reply = await call(generation, batch);
      if (reply[0] === 1) return { counted: reply[1], duplicates };
      const counted = new Set(reply[1]);
      duplicates += counted.size;
      batch = prepare(
        batch.org,
        batch.recordings.filter((_, i) => !counted.has(i + 1)),
      );
    }
    return { counted: 0, duplicates };
  }

  return {
    apply: (generation, org, recordings) => applyPrepared(generation, prepare(org, recordings)),
    prepare,
    applyPrepared,
  };
}
