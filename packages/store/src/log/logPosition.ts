import { randomUUID } from "node:crypto";
import type { Keyspace } from "../format/keyspace";
import type { RedisClient } from "../redis/redisClient";
import { isTransientRedisError } from "../redis/redisErrors";
import { defineScripts } from "../redis/scriptLoader";
import { StoreError } from "../storeError";
import { LOG_SCRIPTS } from "./logScripts";

/**
 * Where the view (the rollups of one generation) stands in the log (the Kafka topic), kept in
 * Redis with the rollups themselves, so that whatever Redis loses, it loses together:
 *
 * - the **epoch**: a random id, opened by the first worker that finds none. An epoch that
 *   disappears (Redis emptied) or is replaced (Redis went back to an older snapshot) tells readers
 *   that what they cached is of another state, and workers that they must resume from Redis'
 *   checkpoints, not from where they were;
 * - the **state**: "live" (every partition applied up to where it was when the epoch opened),
 *   "replaying" (not yet: the API answers 503), or "incomplete" (the topic no longer holds events
 *   the view needs: 503 until an operator rebuilds with `--allow-partial`);
 * - per partition, the **checkpoint**: every message before it is applied (the worker seeks
 *   there), and while replaying the **target** it must reach;
 * - per partition, the **as of** instant, moved with the checkpoint: every message produced before
 *   it is below the checkpoint. The view as a whole is as of the earliest of them (`asOfMs`);
 * - on a cluster, per partition and shard, the **write count** the partition's apply calls below
 *   its checkpoint left on the shard (keyspace `shardWrites`): a shard found below it lost writes
 *   on its node, which nothing in the log hash (on another node) would show otherwise
 *   (`shardsBehind`);
 * - per partition, the **fence** of its writer: each claim is higher than the ones before it, and a
 *   shard that has seen a fence refuses the calls of earlier writers (a consumer that outlived its
 *   session, a rebuild still running beside the live worker), so two writers never take each
 *   other's calls for lost writes.
 * - per topic, the **topic id** Kafka gave the topic the view counts (`adoptTopicId`): the offsets
 *   kept with the sums and the checkpoints are that topic's, and a topic deleted and created again
 *   under the same name has other offsets under another id. Kept while the sums are (a reopened or
 *   reset epoch keeps it); a new generation, or a store that lost its epoch, starts without one.
 */
export type ViewState = "live" | "replaying" | "incomplete";

export interface ViewStatus {
  /** Null: the store has no epoch (Redis lost its state, or no worker has started). */
  epoch: string | null;
  state: ViewState | null;
  /** Why the view is not live, for readiness and 503s. */
  reason: string | null;
}

export interface LogRecord extends ViewStatus {
  /** "<topic>:<partition>" → the next offset to consume. */
  checkpoints: ReadonlyMap<string, string>;
  /** "<topic>:<partition>" → the offset a replay must reach. */
  targets: ReadonlyMap<string, string>;
  /** "<topic>:<partition>" → its "as of" instant (ms since the Unix epoch); `read` always fills it. */
  asOf?: ReadonlyMap<string, number>;
  /**
   * "<topic>:<partition>" → shard → the partition's write count on the shard recorded below its
   * checkpoint (a cluster); `read` always fills it.
   */
  shardWrites?: ReadonlyMap<string, ReadonlyMap<number, number>>;
  /** Topic → the id of the topic the view counts (`adoptTopicId`); `read` always fills it. */
  topicIds?: ReadonlyMap<string, string>;
}

/** The view's status, and the instant up to which every partition with a checkpoint is applied. */
export interface ViewStanding extends ViewStatus {
  /**
   * The earliest "as of" of the partitions that have a checkpoint: the view holds every event
   * produced before it. Null while none is known, or while a partition with a checkpoint has none.
   */
  asOfMs: number | null;
}

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
   * The partition's "as of" instant (ms since the Unix epoch), stored atomically with the
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
  /** The partition's latest claim, or null when the log hash holds none (never claimed, or lost). */
  fenceOf(generation: number, partition: string): Promise<string | null>;
  /**
   * Records `topicId` as the id of the topic the view counts, unless one is recorded already;
   * resolves with the id recorded now (another worker's, if it recorded one first).
   */
  adoptTopicId(generation: number, topic: string, topicId: string): Promise<string>;
}

/** The field naming one partition of one topic in the log hash and in the extents. */
export function partitionKey(topic: string, partition: number): string {
  return `${topic}:${partition}`;
}

/**
 * The earliest "as of" over the partitions that have a checkpoint (`next:` fields), or null when no
 * partition has a checkpoint or one of them has no "as of" yet (nothing is known about it).
 */
export function viewAsOf(
  checkpoints: ReadonlyMap<string, string>,
  asOf: ReadonlyMap<string, number>,
): number | null {
  let earliest: number | null = null;
  for (const partition of checkpoints.keys()) {
    const at = asOf.get(partition);
    if (at === undefined) return null;
    earliest = earliest === null ? at : Math.min(earliest, at);
  }
  return earliest;
}

/** The status of a record, and the view's "as of" instant (`viewAsOf`). */
export function standingOf(record: LogRecord): ViewStanding {
  const { epoch, state, reason } = record;
  return { epoch, state, reason, asOfMs: viewAsOf(record.checkpoints, record.asOf ?? new Map()) };
}

const STATES: ReadonlySet<string> = new Set<ViewState>(["live", "replaying", "incomplete"]);

/** The log hash's field prefix of a topic's id (openEpoch-1.lua keeps these through a reset). */
const TOPIC_ID = "topicid:";

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
  const status = (epoch: unknown, state: unknown, reason: unknown): ViewStatus => ({
    epoch: typeof epoch === "string" && epoch !== "" ? epoch : null,
    state: typeof state === "string" && STATES.has(state) ? (state as ViewState) : null,
    reason: typeof reason === "string" && reason !== "" ? reason : null,
  });
  async function read(generation: number): Promise<LogRecord> {
    let fields: Record<string, string>;
    try {
      fields = await redis.hgetall(keyspace.log(generation));
    } catch (cause) {
      throw failed("reading the view's checkpoints", cause);
    }
    const checkpoints = new Map<string, string>();
    const targets = new Map<string, string>();
    const asOf = new Map<string, number>();
    const shardWrites = new Map<string, Map<number, number>>();
    const topicIds = new Map<string, string>();
    for (const [field, value] of Object.entries(fields)) {
      if (field.startsWith("next:")) checkpoints.set(field.slice(5), value);
      else if (field.startsWith(TOPIC_ID)) topicIds.set(field.slice(TOPIC_ID.length), value);
      else if (field.startsWith("writes:")) {
        const [shard, partition] = splitOnce(field.slice(7));
        const counts = shardWrites.get(partition) ?? new Map<number, number>();
        shardWrites.set(partition, counts.set(Number(shard), Number(value)));
      } else if (field.startsWith("target:")) targets.set(field.slice(7), value);
      else if (field.startsWith("asof:") && Number.isFinite(Number(value)) && value !== "")
        asOf.set(field.slice(5), Number(value));
    }
    return {
      ...status(fields.epoch, fields.state, fields.reason),
      checkpoints,
      targets,
      asOf,
      shardWrites,
      topicIds,
    };
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
        return status(epoch, state, reason);
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
      // A stored value is "<count>:<token>:<fence>" (applyBatches.lua).
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
        if ((await redis.hsetnx(key, `${TOPIC_ID}${topic}`, topicId)) === 1) return topicId;
        return (await redis.hget(key, `${TOPIC_ID}${topic}`)) ?? topicId;
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

/** "a:b:c" → ["a", "b:c"]. */
function splitOnce(text: string): [string, string] {
  const at = text.indexOf(":");
  return at < 0 ? [text, ""] : [text.slice(0, at), text.slice(at + 1)];
}
