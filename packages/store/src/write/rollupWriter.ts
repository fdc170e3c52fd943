import { DEFAULT_RETENTION, type Retention } from "@vu/time-buckets";
import { Cluster } from "ioredis";
import { derivesTiers, layoutArguments } from "../format/blockPlacement";
import { type Keyspace, shardOf } from "../format/keyspace";
import type { RedisClient } from "../redis/redisClient";
import { isTransientRedisError } from "../redis/redisErrors";
import { defineScripts } from "../redis/scriptLoader";
import { CheckpointMovedError, PartitionFencedError, ShardBehindError, StoreError } from "../storeError";
import { APPLY_REPLY, callArgs, organizationArgs, organizationKeys } from "./applyCall";
import { type ApplyGuard, CallGuards } from "./applyGuard";
import { type ApplyBatchesReply, type OrganizationReply, WRITE_SCRIPTS } from "./applyScript";
import { aggregateBatch, type CountableRecording } from "./batchAggregate";
import { encodeBatch } from "./batchEncoding";
import { callGroups } from "./callGroups";
import { CallWindow } from "./callWindow";
import { createGroupApply, type GroupApply } from "./groupApply";
import { createLayoutCache } from "./layoutCache";
import { type ApplyResult, type BatchOrigin, firstOffset, type PreparedBatch } from "./preparedBatch";
import { ShardTurns } from "./shardTurns";

export interface RollupWriterOptions {
  redis: RedisClient;
  keyspace: Keyspace;
  retention?: Retention;
  /** How long a counted recording id blocks later copies (docs/contract.md §1: 7 days by default). */
  dedupeWindowMs: number;
  /** The worker's clock, for retention only: the dedupe windows follow Redis' clock. */
  now?: () => number;
  /**
   * Keep percentile sketches beside every cell (docs/contract.md §9 `percentiles`,
   * docs/decisions/0029-projection-sketches.md). Off by default: they cost memory and Redis CPU
   * per recording. An organization whose every recording was counted with them is marked so in
   * its extent; readers answer percentiles for no other.
   */
  sketches?: boolean;
  /**
   * Script calls this writer has sent and not had answered, at most (CALLS_IN_FLIGHT by default);
   * the next waits for one to answer.
   */
  callsInFlight?: number;
}

/**
 * Enough for Redis to find a call waiting whenever it finishes one, while the worker prepares its
 * next chunk, and one call per partition consumed at once; few enough that a call never queues
 * behind much more than a chunk's work of this writer (callWindow.ts).
 */
const CALLS_IN_FLIGHT = 8;

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
   * The I/O half: the script call is written to Redis before this returns its promise, or queued
   * behind the writer's calls in flight (`callsInFlight`), in the order made. Fails
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

/**
 * The writer wires its parts: the layouts it heard of (layoutCache.ts), its calls' guards
 * (CallGuards), the turns of a partition's calls on each shard (ShardTurns), and the settling of a
 * group's refusals (groupApply.ts).
 */
export function createRollupWriter(options: RollupWriterOptions): RollupWriter {
  const { redis, keyspace, dedupeWindowMs } = options;
  const sketches = options.sketches ?? false;
  const retention = options.retention ?? DEFAULT_RETENTION;
  const now = options.now ?? Date.now;
  const layouts = createLayoutCache(derivesTiers(retention));
  const layoutRule = layoutArguments(retention);
  const guards = new CallGuards(redis, keyspace);
  const turns = new ShardTurns();
  const window = new CallWindow(options.callsInFlight ?? CALLS_IN_FLIGHT);
  defineScripts(redis, WRITE_SCRIPTS);

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
      sketches,
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

  /** One script call for `batches` (distinct organizations of one hash tag), in turn per shard on a cluster. */
  function call(
    generation: number,
    batches: readonly PreparedBatch[],
    guard?: ApplyGuard,
  ): Promise<OrganizationReply[]> {
    const send = () => window.run(() => callNow(generation, batches, guard));
    const shards = redis instanceof Cluster ? guard?.shards : undefined;
    if (shards === undefined) return send();
    // Taken in turn first: a call holding a place to send never waits for a turn.
    return turns.inTurn(shards, shardOf(batches[0]?.org ?? ""), send);
  }

  async function callNow(
    generation: number,
    batches: readonly PreparedBatch[],
    guard?: ApplyGuard,
  ): Promise<OrganizationReply[]> {
    const check = guards.of(generation, batches, guard);
    const keys: string[] = [check.key];
    const args: Array<string | Buffer> = callArgs({
      dedupeWindowMs: String(dedupeWindowMs),
      layoutRule,
      guard: check.field,
      expected: check.expected,
      sketches: sketches ? "1" : "",
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
      // Redis may have run the call and its reply been lost: the shard may hold its call id now.
      check.shard?.writes.unconfirmed(check.shard.number, check.shard.callId);
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

  function applyGroup<R extends CountableRecording>(
    generation: number,
    batches: readonly PreparedBatch<R>[],
    guard?: ApplyGuard,
  ): GroupApply<R> {
    return createGroupApply(batches, {
      call: (group) => call(generation, group, guard),
      prepare,
      learnLayout: (org, layout) => layouts.learn(org, layout),
    });
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
