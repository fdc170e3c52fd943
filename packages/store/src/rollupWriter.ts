import { randomBytes } from "node:crypto";
import { DEFAULT_RETENTION, type Retention } from "@vu/time-buckets";
import { Cluster } from "ioredis";
import { APPLY_REPLY, callArgs, organizationArgs, organizationKeys } from "./applyCall";
import { aggregateBatch, type BatchPayload, type CountableRecording } from "./batchAggregate";
import { encodeBatch } from "./batchEncoding";
import { derivesTiers, layoutArguments } from "./blockPlacement";
import { callGroups } from "./callGroups";
import { type Keyspace, shardOf } from "./keyspace";
import { createLayoutCache } from "./layoutCache";
import type { RedisClient } from "./redisClient";
import { isTransientRedisError } from "./redisErrors";
import { type ApplyBatchesReply, type OrganizationReply, registerScripts } from "./scripts";
import { CheckpointMovedError, PartitionFencedError, ShardBehindError, StoreError } from "./storeError";

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
 * What the worker believes of where the view stands, checked by the apply script in the same
 * atomic step; a call that finds otherwise writes nothing. On a single Redis: the partition's
 * checkpoint (null: none yet); Redis holding another throws `CheckpointMovedError`. On a cluster,
 * where the log lives in another slot: the partition's write counts on each shard (`shards`); a
 * shard that lost writes throws `ShardBehindError`, one that a later writer of the partition has
 * reached throws `PartitionFencedError`.
 */
export interface ApplyGuard {
  checkpoint: string | null;
  shards?: ShardWrites;
}

/**
 * What a worker knows of its partition's writes on each shard (keyspace `shardWrites`, on a
 * cluster), for the calls of one partition, one after another per shard: the count the view's
 * checkpoints recorded below them, and the tokens the shard may hold from its own calls since it
 * resumed (the last confirmed one and those of later calls whose replies never came; none yet:
 * only the count is checked). Every call leaves the count and token in force (`wrote`), which the
 * worker records with the checkpoint as it moves past them; a call without a reply leaves its
 * token as one the shard may hold (`unconfirmed`). `fence` is the writer's claim on the partition
 * (LogPosition.claim): a shard refuses the calls of fences below the highest it has seen.
 */
export interface ShardWrites {
  readonly fence: string;
  least(shard: number): number;
  tokens(shard: number): readonly string[];
  wrote(shard: number, count: number, token: string): void;
  unconfirmed(shard: number, token: string): void;
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

/**
 * Several organizations' batches applied by shared script calls (see `RollupWriter.applyGroup`).
 * Resumable: after a failure, `run` again sends only the batches not yet settled.
 */
export interface GroupApply<R extends CountableRecording = CountableRecording> {
  /** Applies (or goes on applying) every batch; resolves with their results, in order. */
  run(): Promise<ApplyResult[]>;
  /**
   * Results of the batches settled so far, and the batches still to apply (after a failure), each
   * with what earlier calls already found of it (copies and replays dropped from it).
   */
  progress(): { settled: ApplyResult[]; unsettled: Array<UnsettledBatch<R>> };
}

export interface UnsettledBatch<R extends CountableRecording> {
  batch: PreparedBatch<R>;
  duplicates: number;
  replayed: number;
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
  /**
   * Splits batches of distinct organizations (of one partition, for a guard) into the groups that
   * can share a script call: on a cluster those whose keys share a hash tag, on a single Redis any.
   */
  groups<R extends CountableRecording>(batches: readonly PreparedBatch<R>[]): PreparedBatch<R>[][];
  /**
   * Applies one group (from `groups`) as `applyPrepared` applies each of its batches, in shared
   * script calls: each batch is atomic on its own, a call that fails writes nothing of any.
   */
  applyGroup<R extends CountableRecording>(
    generation: number,
    batches: readonly PreparedBatch<R>[],
    guard?: ApplyGuard,
  ): GroupApply<R>;
}

export function createRollupWriter(options: RollupWriterOptions): RollupWriter {
  const { redis, keyspace, dedupeWindowMs } = options;
  const retention = options.retention ?? DEFAULT_RETENTION;
  const now = options.now ?? Date.now;
  const layouts = createLayoutCache(derivesTiers(retention));
  const layoutRule = layoutArguments(retention);
  /** Each call's token on a cluster: this writer's random prefix and a count (applyBatches.lua). */
  const callTokens = randomBytes(6).toString("hex");
  let calls = 0;
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

  /** The call's guard: its key and arguments (see the script header); `shard` with a write-count guard. */
  function guarded(generation: number, batches: readonly PreparedBatch[], guard?: ApplyGuard) {
    const org = batches[0]?.org ?? "";
    const origin = batches.find((batch) => batch.origin !== undefined)?.origin;
    if (guard !== undefined && origin !== undefined && !(redis instanceof Cluster)) {
      return {
        key: keyspace.log(generation),
        field: `next:${origin.partition}`,
        expected: guard.checkpoint ?? "",
      };
    }
    const shards = origin === undefined ? undefined : guard?.shards;
    if (origin === undefined || shards === undefined)
      return { key: keyspace.extent(generation, org), field: "", expected: "" };
    const shard = shardOf(org);
    const least = shards.least(shard);
    const token = `${callTokens}${(++calls).toString(36)}`;
    const tokens = shards.tokens(shard);
    return {
      key: keyspace.shardWrites(generation, shard),
      field: "writes",
      expected: [
        origin.partition,
        least,
        tokens.length === 0 ? "-" : tokens.join(","),
        token,
        shards.fence,
      ].join(" "),
      shard: { number: shard, writes: shards, least, token },
    };
  }

  /**
   * On a cluster, one partition's calls to one shard go one after another, whoever makes them
   * (the groups of a chunk, an organization applied alone): each expects the token the one before
   * it left (applyBatches.lua).
   */
  const shardQueues = new WeakMap<ShardWrites, Map<number, Promise<unknown>>>();
  function inTurn<T>(shards: ShardWrites, shard: number, work: () => Promise<T>): Promise<T> {
    const queues = shardQueues.get(shards) ?? new Map<number, Promise<unknown>>();
    shardQueues.set(shards, queues);
    const turn = (queues.get(shard) ?? Promise.resolve()).then(work, work);
    queues.set(
      shard,
      turn.catch(() => undefined),
    );
    return turn;
  }

  /** One script call for `batches` (distinct organizations of one hash tag), in turn per shard on a cluster. */
  function call(
    generation: number,
    batches: readonly PreparedBatch[],
    guard?: ApplyGuard,
  ): Promise<OrganizationReply[]> {
    const shards = redis instanceof Cluster ? guard?.shards : undefined;
    if (shards === undefined) return callNow(generation, batches, guard);
    return inTurn(shards, shardOf(batches[0]?.org ?? ""), () => callNow(generation, batches, guard));
  }

  async function callNow(
    generation: number,
    batches: readonly PreparedBatch[],
    guard?: ApplyGuard,
  ): Promise<OrganizationReply[]> {
    const check = guarded(generation, batches, guard);
    const keys: string[] = [check.key];
    const args: Array<string | Buffer> = callArgs({
      dedupeWindowMs: String(dedupeWindowMs),
      layoutRule,
      guard: check.field,
      expected: check.expected,
    });
    for (const batch of batches) {
      const { org, origin, extent } = batch;
      keys.push(...organizationKeys(keyspace, generation, org));
      args.push(
        ...organizationArgs({
          batch: batch.encoded,
          firstRecordedAt: String(extent[0]),
          lastRecordedAt: String(extent[1]),
          offsetField: origin === undefined ? "" : `o:${origin.partition}`,
          firstOffset: origin === undefined ? "" : firstOffset(batch.recordings, origin),
          throughOffset: origin?.throughOffset ?? "",
          layout: batch.layout,
        }),
      );
    }
    let reply: ApplyBatchesReply;
    try {
      reply = await redis.vuApplyBatches(keys.length, keys, args);
    } catch (cause) {
      // Redis may have run the call and its reply been lost: the shard may hold its token now.
      check.shard?.writes.unconfirmed(check.shard.number, check.shard.token);
      throw new StoreError("applying a batch to Redis failed", {
        retriable: isTransientRedisError(cause),
        cause,
        context: {
          orgs: batches.length,
          org: batches[0]?.org,
          recordings: batches.reduce((n, b) => n + b.recordings.length, 0),
        },
      });
    }
    if (reply[0] === APPLY_REPLY.checkpointMoved)
      throw new CheckpointMovedError(reply[1] === "" ? null : reply[1]);
    if (reply[0] === APPLY_REPLY.shardBehind)
      throw new ShardBehindError(shardOf(batches[0]?.org ?? ""), reply[1], check.shard?.least ?? 0);
    if (reply[0] === APPLY_REPLY.fenced)
      throw new PartitionFencedError(shardOf(batches[0]?.org ?? ""), reply[1]);
    if (check.shard !== undefined && reply[3] !== "")
      check.shard.writes.wrote(check.shard.number, reply[2], reply[3]);
    return reply[1];
  }

  interface Pending<R extends CountableRecording> extends UnsettledBatch<R> {
    index: number;
  }

  /**
   * What one organization's reply leaves to do: nothing (its result), or its batch again without
   * what the refusal names. A refusal wrote nothing; dropping what it names and calling again
   * converges because ids only ever become counted and offsets only ever move on.
   */
  function afterReply<R extends CountableRecording>(
    pending: Pending<R>,
    reply: OrganizationReply,
  ): ApplyResult | Pending<R> {
    const { batch } = pending;
    const { org, origin } = batch;
    if (reply[0] === APPLY_REPLY.ok) {
      layouts.learn(org, reply[2]);
      return { counted: reply[1], duplicates: pending.duplicates, replayed: pending.replayed };
    }
    if (reply[0] === APPLY_REPLY.layoutMoved) {
      // Laid out for another layout than Redis holds (another worker moved a tier, or a new epoch).
      layouts.learn(org, reply[1]);
      return { ...pending, batch: prepare(org, batch.recordings, origin) };
    }
    if (reply[0] === APPLY_REPLY.duplicates) {
      const kept = withoutIndexes(batch.recordings, reply[1]);
      const duplicates = pending.duplicates + batch.recordings.length - kept.length;
      return unlessDone({ ...pending, duplicates, batch: prepare(org, kept, origin) });
    }
    const kept = batch.recordings.filter((r) => Number(r.offset) > Number(reply[1]));
    const replayed = pending.replayed + batch.recordings.length - kept.length;
    if (Number(origin?.throughOffset) <= Number(reply[1]))
      return { counted: 0, duplicates: pending.duplicates, replayed };
    return unlessDone({ ...pending, replayed, batch: prepare(org, kept, origin) });
  }

  /**
   * A batch left empty is done, unless it has an origin: then it is still sent, to record the
   * offset, so a later replay skips the repeats it covered.
   */
  function unlessDone<R extends CountableRecording>(pending: Pending<R>): ApplyResult | Pending<R> {
    const { batch, duplicates, replayed } = pending;
    return batch.recordings.length === 0 && batch.origin === undefined
      ? { counted: 0, duplicates, replayed }
      : pending;
  }

  function applyGroup<R extends CountableRecording>(
    generation: number,
    batches: readonly PreparedBatch<R>[],
    guard?: ApplyGuard,
  ): GroupApply<R> {
    const results: Array<ApplyResult | undefined> = [];
    let pending: Pending<R>[] = [];
    batches.forEach((batch, index) => {
      const first = unlessDone({ index, batch, duplicates: 0, replayed: 0 });
      if ("counted" in first) results[index] = first;
      else pending.push(first);
    });
    return {
      async run() {
        while (pending.length > 0) {
          const replies = await call(
            generation,
            pending.map((p) => p.batch),
            guard,
          );
          const next: Pending<R>[] = [];
          // Laying a refused batch out again may fail (a recording the encoder cannot take): that
          // one stays unsettled as it was, the others move on, and only then the failure is thrown,
          // so `progress` never shows a batch both settled and to apply.
          let failure: { error: unknown } | undefined;
          replies.forEach((organizationReply, i) => {
            const entry = pending[i] as Pending<R>;
            try {
              const after = afterReply(entry, organizationReply);
              if ("counted" in after) results[entry.index] = after;
              else next.push(after);
            } catch (error) {
              failure ??= { error };
              next.push(entry);
            }
          });
          pending = next;
          if (failure !== undefined) throw failure.error;
        }
        return results as ApplyResult[];
      },
      progress: () => ({
        settled: results.filter((r): r is ApplyResult => r !== undefined),
        unsettled: pending.map(({ batch, duplicates, replayed }) => ({ batch, duplicates, replayed })),
      }),
    };
  }

  function groups<R extends CountableRecording>(batches: readonly PreparedBatch<R>[]): PreparedBatch<R>[][] {
    const tagOf = (org: string) => (redis instanceof Cluster ? keyspace.slotTag(org) : "");
    return callGroups(
      batches,
      (batch) => tagOf(batch.org),
      (batch) => batch.recordings.length,
    );
  }

  async function applyPrepared<R extends CountableRecording>(
    generation: number,
    prepared: PreparedBatch<R>,
    guard?: ApplyGuard,
  ): Promise<ApplyResult> {
    const [result] = await applyGroup(generation, [prepared], guard).run();
    return result as ApplyResult;
  }

  return {
    apply: (generation, org, recordings, origin) =>
      applyPrepared(generation, prepare(org, recordings, origin)),
    prepare,
    applyPrepared,
    groups,
    applyGroup,
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
