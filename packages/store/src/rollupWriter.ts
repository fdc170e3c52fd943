import { DIMENSIONS } from "@vu/events";
import { DEFAULT_RETENTION, type Retention } from "@vu/time-buckets";
import { Cluster } from "ioredis";
import { aggregateBatch, type BatchPayload, type CountableRecording } from "./batchAggregate";
import { encodeBatch } from "./batchEncoding";
import { layoutArguments } from "./blockPlacement";
import type { Keyspace } from "./keyspace";
import { createLayoutCache } from "./layoutCache";
import type { RedisClient } from "./redisClient";
import { isTransientRedisError } from "./redisErrors";
import { type ApplyBatchReply, registerScripts } from "./scripts";
import { CheckpointMovedError, StoreError } from "./storeError";

export interface RollupWriterOptions {
  redis: RedisClient;
  keyspace: Keyspace;
  retention?: Retention;
  /** How long a counted recording id blocks later copies (docs/contract.md §1: 7 days by default). */
  dedupeWindowMs: number;
  /** The worker's clock, for retention only: the dedupe windows follow Redis' clock. */
  now?: () => number;
}

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
 * What the worker believes of the partition's checkpoint when it applies (null: none yet). On a
 * single Redis the apply script checks it in the same atomic step and writes nothing when Redis
 * holds another (throwing `CheckpointMovedError`). On a cluster the log lives in another slot: the
 * worker's checks (PartitionPositions) find a log hash that was lost or went back only after the
 * write, and a node other than the log hash's that loses writes is not found at all (the README
 * says what an operator does then).
 */
export interface ApplyGuard {
  checkpoint: string | null;
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

export interface RollupWriter {
  /**
   * Counts one organization's recordings (ids unique within the call) into generation
   * `generation`, atomically and exactly once: ids already counted within the dedupe window are
   * dropped, whatever their other fields say, and so are messages at or below the offset the
   * organization has applied of the batch's partition (with an `origin`).
   */
  apply(
    generation: number,
    org: string,
    recordings: readonly CountableRecording[],
    origin?: BatchOrigin,
  ): Promise<ApplyResult>;
  /**
   * The CPU half of `apply`: lets a caller prepare the next batch while Redis runs the previous
   * one. Retention is taken at the time of preparing.
   */
  prepare<R extends CountableRecording>(
    org: string,
    recordings: readonly R[],
    origin?: BatchOrigin,
  ): PreparedBatch<R>;
  /**
   * The I/O half: the script call is written to Redis before this returns its promise. Fails
   * with a `StoreError` whose `retriable` says whether the same call may succeed later; a failed
   * call has written nothing.
   */
  applyPrepared<R extends CountableRecording>(
    generation: number,
    batch: PreparedBatch<R>,
    guard?: ApplyGuard,
  ): Promise<ApplyResult>;
}

export function createRollupWriter(options: RollupWriterOptions): RollupWriter {
  const { redis, keyspace, dedupeWindowMs } = options;
  const retention = options.retention ?? DEFAULT_RETENTION;
  const now = options.now ?? Date.now;
  const layouts = createLayoutCache();
  const layoutRule = layoutArguments();
  registerScripts(redis);

  function prepare<R extends CountableRecording>(
    org: string,
    recordings: readonly R[],
    origin?: BatchOrigin,
  ): PreparedBatch<R> {
    const layout = layouts.of(org, recordings);
    const payload = aggregateBatch(recordings, {
      keyspace,
      retention,
      nowMs: now(),
      placement: layout.placement,
    });
    return {
      org,
      layout: layout.code,
      recordings,
      origin,
      extent: payload.extent,
      encoded: encodeBatch(payload),
    };
  }

  /** KEYS[8] and the checkpoint check's ARGV (see the script header). */
  function guarded(
    generation: number,
    org: string,
    batch: PreparedBatch<CountableRecording>,
    guard?: ApplyGuard,
  ) {
    if (guard === undefined || batch.origin === undefined || redis instanceof Cluster) {
      return { key: keyspace.extent(generation, org), field: "", expected: "" };
    }
    return {
      key: keyspace.log(generation),
      field: `next:${batch.origin.partition}`,
      expected: guard.checkpoint ?? "",
    };
  }

  async function call(
    generation: number,
    batch: PreparedBatch<CountableRecording>,
    guard?: ApplyGuard,
  ): Promise<ApplyBatchReply> {
    const { org, origin, extent } = batch;
    const check = guarded(generation, org, batch, guard);
    const keys = [
      keyspace.orgBase(generation, org),
      keyspace.combos(generation, org),
      ...DIMENSIONS.map((d) => keyspace.dimension(generation, org, d)),
      keyspace.extent(generation, org),
      check.key,
    ];
    const log =
      origin === undefined
        ? ["", "", ""]
        : [`o:${origin.partition}`, firstOffset(batch.recordings, origin), origin.throughOffset];
    try {
      return await redis.vuApplyBatch(
        ...keys,
        String(dedupeWindowMs),
        batch.encoded,
        String(extent[0]),
        String(extent[1]),
        ...(log as [string, string, string]),
        check.field,
        check.expected,
        batch.layout,
        layoutRule,
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
    guard?: ApplyGuard,
  ): Promise<ApplyResult> {
    const { org, origin } = prepared;
    let batch = prepared;
    let duplicates = 0;
    let replayed = 0;
    // A refusal wrote nothing; dropping what it names and calling again converges because ids
    // only ever become counted and offsets only ever move on. With an origin, a batch left empty
    // is still sent: it records the offset, so a later replay skips the repeats it covered.
    while (batch.recordings.length > 0 || origin !== undefined) {
      const reply = await call(generation, batch, guard);
      if (reply[0] === 1) {
        layouts.learn(org, reply[2]);
        return { counted: reply[1], duplicates, replayed };
      }
      if (reply[0] === -3) throw new CheckpointMovedError(reply[1] === "" ? null : reply[1]);
      if (reply[0] === -4) {
        // Laid out for another layout than Redis holds (another worker moved a tier, or a new epoch).
        layouts.learn(org, reply[1]);
        batch = prepare(org, batch.recordings, origin);
        continue;
      }
      const kept =
        reply[0] === -1
          ? withoutIndexes(batch.recordings, reply[1])
          : batch.recordings.filter((r) => Number(r.offset) > Number(reply[1]));
      if (reply[0] === -1) duplicates += batch.recordings.length - kept.length;
      else replayed += batch.recordings.length - kept.length;
      if (reply[0] === -2 && Number(origin?.throughOffset) <= Number(reply[1])) break;
      batch = prepare(org, kept, origin);
    }
    return { counted: 0, duplicates, replayed };
  }

  return {
    apply: (generation, org, recordings, origin) =>
      applyPrepared(generation, prepare(org, recordings, origin)),
    prepare,
    applyPrepared,
  };
}

function withoutIndexes<R>(recordings: readonly R[], oneBasedIndexes: readonly number[]): R[] {
  const drop = new Set(oneBasedIndexes);
  return recordings.filter((_, i) => !drop.has(i + 1));
}

/** The lowest offset among the batch's recordings; an empty batch starts at its end. */
function firstOffset(recordings: readonly CountableRecording[], origin: BatchOrigin): string {
  let first = origin.throughOffset;
  for (const { offset } of recordings) {
    if (offset === undefined)
      throw new TypeError("a recording of a batch with an origin must carry its offset");
    if (Number(offset) < Number(first)) first = offset;
  }
  return first;
}
