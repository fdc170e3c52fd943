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
  /** "<topic>:<partition>" → its "as of" instant (Unix time, ms); `read` always fills it. */
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
export const TOPIC_ID_FIELD = "topicid:";

/** A status from the log hash's fields, each null when missing or not one the store writes. */
export function statusOf(epoch: unknown, state: unknown, reason: unknown): ViewStatus {
  return {
    epoch: typeof epoch === "string" && epoch !== "" ? epoch : null,
    state: typeof state === "string" && STATES.has(state) ? (state as ViewState) : null,
    reason: typeof reason === "string" && reason !== "" ? reason : null,
  };
}

/** The log hash's fields (HGETALL) as a record (the fields are listed in the store's README). */
export function parseLogRecord(fields: Record<string, string>): LogRecord {
  const checkpoints = new Map<string, string>();
  const targets = new Map<string, string>();
  const asOf = new Map<string, number>();
  const shardWrites = new Map<string, Map<number, number>>();
  const topicIds = new Map<string, string>();
  for (const [field, value] of Object.entries(fields)) {
    if (field.startsWith("next:")) checkpoints.set(field.slice(5), value);
    else if (field.startsWith(TOPIC_ID_FIELD)) topicIds.set(field.slice(TOPIC_ID_FIELD.length), value);
    else if (field.startsWith("writes:")) {
      const [shard, partition] = splitOnce(field.slice(7));
      const counts = shardWrites.get(partition) ?? new Map<number, number>();
      shardWrites.set(partition, counts.set(Number(shard), Number(value)));
    } else if (field.startsWith("target:")) targets.set(field.slice(7), value);
    else if (field.startsWith("asof:") && Number.isFinite(Number(value)) && value !== "")
      asOf.set(field.slice(5), Number(value));
  }
  return {
    ...statusOf(fields.epoch, fields.state, fields.reason),
    checkpoints,
    targets,
    asOf,
    shardWrites,
    topicIds,
  };
}

/** "a:b:c" → ["a", "b:c"]. */
function splitOnce(text: string): [string, string] {
  const at = text.indexOf(":");
  return at < 0 ? [text, ""] : [text.slice(0, at), text.slice(at + 1)];
}
