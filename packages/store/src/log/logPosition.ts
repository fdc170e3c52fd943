import { randomUUID } from "node:crypto";
import type { Keyspace } from "../format/keyspace";
import type { RedisClient } from "../redis/redisClient";
import { isTransientRedisError } from "../redis/redisErrors";
import { defineScripts } from "../redis/scriptLoader";
import { StoreError } from "../storeError";
import {
  type LogRecord,
  parseLogRecord,
  statusOf,
  TOPIC_ID_FIELD,
  type ViewState,
  type ViewStatus,
} from "./logRecord";
import { LOG_SCRIPTS } from "./logScripts";

export interface OpenEpochOptions {
  /** The epoch the caller saw (null: none); another worker's newer one is kept. */
  expected: string | null;
  /** While targets remain. */
  state: Exclude<ViewState, "live">;
  reason: string;
  /** "<topic>:<partition>" → offset; none: live at once. */
  targets: ReadonlyMap<string, string>;
  /** Drop the checkpoints: the whole topic is replayed. Else a reopened epoch keeps them. */
  reset?: boolean;
}

export interface AdvanceOptions {
  epoch: string;
  partition: string;
  /** The checkpoint the caller last saw (null: none). */
  expected: string | null;
  next: string;
  /**
   * The partition's "as of" instant (Unix time, ms), stored atomically with the
   * checkpoint: every message produced before it is below `next`. Omitted: left as it is.
   */
  asOfMs?: number;
  /** Shard → the partition's write count the apply calls below `next` left on it (a cluster; ShardWrites). */
  shardWrites?: ReadonlyMap<number, number>;
}

export type AdvanceResult =
  | { kind: "advanced"; state: ViewState }
  /** Another epoch, or none (null): start over. */
  | { kind: "epochChanged"; epoch: string | null }
  /** The checkpoint is elsewhere (null: none): resume from there. */
  | { kind: "moved"; checkpoint: string | null };

export interface LogPosition {
  status(generation: number): Promise<ViewStatus>;
  read(generation: number): Promise<LogRecord>;
  /** Opens a new epoch unless another worker did since `expected`; resolves with the epoch now in force. */
  open(generation: number, options: OpenEpochOptions): Promise<{ opened: boolean; epoch: string }>;
  advance(generation: number, options: AdvanceOptions): Promise<AdvanceResult>;
  /** The shards where a partition's write count is now below what `record` recorded: their node lost writes. */
  shardsBehind(generation: number, record: LogRecord): Promise<number[]>;
  /**
   * Makes the caller the partition's writer: resolves with a fence higher than any claimed before
   * and than `floor` (one a shard holds from a claim the log hash no longer records).
   */
  claim(generation: number, partition: string, floor?: string): Promise<string>;
  /** The fence of the partition's latest claim; null when the log hash holds none (never claimed, or lost). */
  fenceOf(generation: number, partition: string): Promise<string | null>;
  /**
   * Records `topicId` as the id of the topic the view counts, unless one is recorded already;
   * resolves with the id recorded now (another worker's, if it recorded one first).
   */
  adoptTopicId(generation: number, topic: string, topicId: string): Promise<string>;
}

function failed(what: string, cause: unknown): StoreError {
  return new StoreError(`${what} failed`, { retriable: isTransientRedisError(cause), cause });
}

export function createLogPosition({
  redis,
  keyspace,
}: {
  redis: RedisClient;
  keyspace: Keyspace;
}): LogPosition {
  defineScripts(redis, LOG_SCRIPTS);
  async function read(generation: number): Promise<LogRecord> {
    try {
      return parseLogRecord(await redis.hgetall(keyspace.log(generation)));
    } catch (cause) {
      throw failed("reading the view's checkpoints", cause);
    }
  }

  return {
    async status(generation) {
      try {
        const [epoch, state, reason] = await redis.hmget(
          keyspace.log(generation),
          "epoch",
          "state",
          "reason",
        );
        return statusOf(epoch, state, reason);
      } catch (cause) {
        throw failed("reading the view's epoch", cause);
      }
    },

    read,

    async open(generation, options) {
      const id = randomUUID();
      const targets = [...options.targets].flat();
      try {
        const [opened, epoch] = await redis.vuOpenEpoch(
          keyspace.log(generation),
          id,
          options.expected ?? "",
          options.state,
          options.reason,
          options.reset === true ? "reset" : "",
          ...targets,
        );
        return { opened: opened === 1, epoch };
      } catch (cause) {
        throw failed("opening an epoch", cause);
      }
    },

    async advance(generation, options) {
      let reply: [number, string];
      try {
        reply = await redis.vuAdvanceCheckpoint(
          keyspace.log(generation),
          options.epoch,
          options.partition,
          options.expected ?? "",
          options.next,
          options.asOfMs === undefined ? "" : String(Math.floor(options.asOfMs)),
          ...[...(options.shardWrites ?? [])].flatMap(([shard, count]) => [String(shard), String(count)]),
        );
      } catch (cause) {
        throw failed("advancing a checkpoint", cause);
      }
      const [code, value] = reply;
      if (code === 1) return { kind: "advanced", state: value as ViewState };
      if (code === -1) return { kind: "epochChanged", epoch: value === "" ? null : value };
      return { kind: "moved", checkpoint: value === "" ? null : value };
    },

    async shardsBehind(generation, record) {
      const recorded = [...(record.shardWrites ?? [])].flatMap(([partition, counts]) =>
        [...counts].map(([shard, least]) => ({ partition, shard, least })),
      );
      if (recorded.length === 0) return [];
      let stored: Array<string | null>;
      try {
        stored = await Promise.all(
          recorded.map(({ partition, shard }) =>
            redis.hget(keyspace.shardWrites(generation, shard), partition),
          ),
        );
      } catch (cause) {
        throw failed("reading the shards' write counts", cause);
      }
      // A stored value is "<count>:<call id>:<fence>" (applyBatches.lua).
      const behind = recorded.filter(({ least }, i) => Number.parseInt(stored[i] ?? "0", 10) < least);
      return [...new Set(behind.map(({ shard }) => shard))];
    },

    async claim(generation, partition, floor) {
      try {
        return await redis.vuClaimPartition(keyspace.log(generation), partition, floor ?? "");
      } catch (cause) {
        throw failed("claiming a partition", cause);
      }
    },

    async fenceOf(generation, partition) {
      try {
        return await redis.hget(keyspace.log(generation), `fence:${partition}`);
      } catch (cause) {
        throw failed("reading a partition's fence", cause);
      }
    },

    async adoptTopicId(generation, topic, topicId) {
      const key = keyspace.log(generation);
      try {
        if ((await redis.hsetnx(key, `${TOPIC_ID_FIELD}${topic}`, topicId)) === 1) return topicId;
        return (await redis.hget(key, `${TOPIC_ID_FIELD}${topic}`)) ?? topicId;
      } catch (cause) {
        throw failed("recording the topic's id", cause);
      }
    },
  };
}

/** Orders two fences (decimal strings, which may pass Number's exact integers): <0, 0 or >0. */
export function compareFences(a: string, b: string): number {
  if (a.length !== b.length) return a.length - b.length;
  return a < b ? -1 : a > b ? 1 : 0;
}
