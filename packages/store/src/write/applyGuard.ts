import { randomBytes } from "node:crypto";
import { Cluster } from "ioredis";
import { type Keyspace, shardOf } from "../format/keyspace";
import type { RedisClient } from "../redis/redisClient";
import type { PreparedBatch } from "./preparedBatch";

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
 * checkpoints recorded below them, and the call ids the shard may hold from its own calls since it
 * resumed (the last confirmed one and those of later calls whose replies never came; none yet:
 * only the count is checked). Every call leaves the count and its call id in force (`wrote`), which the
 * worker records with the checkpoint as it moves past them; a call without a reply leaves its
 * call id as one the shard may hold (`unconfirmed`). `fence` is the fence of the writer's claim on the
 * partition (LogPosition.claim): a shard refuses the calls of fences below the highest it has seen.
 */
export interface ShardWrites {
  readonly fence: string;
  least(shard: number): number;
  callIds(shard: number): readonly string[];
  wrote(shard: number, count: number, callId: string): void;
  unconfirmed(shard: number, callId: string): void;
}

/** A call's guard: its key and arguments (see the script header); `shard` with a write-count guard. */
export interface CallGuard {
  key: string;
  field: string;
  expected: string;
  shard?: { number: number; writes: ShardWrites; least: number; callId: string };
}

/** The guards of one writer's calls, each call with an id of its own on a cluster. */
export class CallGuards {
  /** This writer's random prefix of its calls' ids (applyBatches.lua), and how many it made. */
  readonly #prefix = randomBytes(6).toString("hex");
  #calls = 0;

  constructor(
    private readonly redis: RedisClient,
    private readonly keyspace: Keyspace,
  ) {}

  /** The guard of one call for `batches` (distinct organizations of one hash tag). */
  of(generation: number, batches: readonly PreparedBatch[], guard?: ApplyGuard): CallGuard {
    const { keyspace } = this;
    const org = batches[0]?.org ?? "";
    const origin = batches.find((batch) => batch.origin !== undefined)?.origin;
    if (guard !== undefined && origin !== undefined && !(this.redis instanceof Cluster)) {
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
    const callId = `${this.#prefix}${(++this.#calls).toString(36)}`;
    const earlier = shards.callIds(shard);
    return {
      key: keyspace.shardWrites(generation, shard),
      field: "writes",
      expected: [
        origin.partition,
        least,
        earlier.length === 0 ? "-" : earlier.join(","),
        callId,
        shards.fence,
      ].join(" "),
      shard: { number: shard, writes: shards, least, callId },
    };
  }
}
