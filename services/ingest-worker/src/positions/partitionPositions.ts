import type { Logger } from "@vu/service-runtime";
import {
  compareFences,
  type LogPosition,
  type LogRecord,
  partitionKey,
  type ShardWrites,
  type ViewStatus,
} from "@vu/store";
import type { Admin } from "kafkajs";
import type { IngestMetrics } from "../metrics";
import { createTopicIdentity } from "./topicIdentity";

/**
 * Where each partition this worker owns resumes: from the checkpoint the view keeps in Redis with
 * the sums (logPosition.ts), not from Kafka's committed offset. Whatever Redis lost is therefore
 * replayed, and whatever it kept is not read again; Kafka's committed offsets stay for lag and
 * monitoring. Also opens the view's epoch when Redis has none, and starts a new one when Redis went
 * back to an older state.
 */
export interface PartitionPositions {
  /** The offset partition `partition` of `generation` resumes at, establishing it if needed. */
  resumeAt(generation: number, partition: number): Promise<Position>;
  /**
   * Records that every message of the partition before `next` is applied, from `position` (the one
   * the batch in hand started from, and moved since: never looked up again, so that a batch of one
   * epoch never writes into the next). Resolves with the position after it, or undefined when the
   * view moved under the worker (another epoch, or a checkpoint elsewhere): every partition has
   * been sought to where the view stands, and the batch in hand must stop. `asOfMs`: the
   * partition's "as of" instant (every message produced before it is below `next`), recorded in
   * the same script call (docs/contract.md §7 `X-Data-As-Of`).
   */
  advance(
    partition: number,
    position: Position,
    next: string,
    asOfMs?: number,
    shardWrites?: ReadonlyMap<number, number>,
  ): Promise<Position | undefined>;
  /**
   * The apply guard's shard writes for one chunk applied from `position` (on a cluster; a single
   * Redis ignores them): the count the partition's checkpoint recorded on each shard, the token
   * this worker's last call there left, and what the chunk's calls leave (`written`, passed to
   * `advance`).
   */
  shardWrites(position: Position): ChunkShardWrites;
  /**
   * A shard was found below its write count (ShardBehindError): its node lost writes the
   * checkpoints say are applied, and no checkpoint tells where they were. The view is replayed
   * whole, in a new epoch; the caller then repositions (`watch` with `force`).
   */
  shardBehind(position: Position, shards: readonly number[]): Promise<void>;
  /**
   * A shard refused the partition's calls for a later writer's fence (PartitionFencedError): true
   * when the log records a claim after this worker's (it no longer owns the partition and stops
   * writing it until the group assigns it again); false when the shard's fence is one the log no
   * longer records (Redis lost it, or went back): this worker claims again past it, and resumes.
   */
  fenced(partition: number, position: Position, shardFence: string): Promise<boolean>;
  /**
   * Whether a batch starting at `first` must be dropped for a seek to `next`. A batch that starts
   * past `next` right after a seek there is taken as it is: the log has no messages in between
   * (offsets it skips, such as control records).
   */
  mustSeek(partition: number, first: string, next: string): boolean;
  /** Dead letters of messages below this offset were sent before: a replay only counts them. */
  deadLettersSentBelow(partition: number): number;
  /** The partitions the group gave this worker; each is sought to where the view stands. */
  assigned(partitions: readonly number[]): void;
  /**
   * Follows the view: a lost or replaced epoch, a checkpoint that went back (Redis restored from an
   * older snapshot), or a new generation repositions every partition; with `force`, always.
   * Otherwise it refreshes the "as of" instant of each owned partition that is caught up (its
   * checkpoint is the partition's high watermark), so an idle partition never holds it back.
   */
  watch(generation: () => Promise<number>, force?: boolean): Promise<void>;
  /** Why the view cannot answer, if it cannot (for readiness). */
  status(): ViewStatus | undefined;
}

export interface Position {
  generation: number;
  epoch: string;
  /** Where the partition resumes. */
  next: string;
  /** The checkpoint as Redis holds it (null: none yet), which the next advance must find there. */
  stored: string | null;
  /** The partition's writes on the shards (a cluster), kept through the position's advances. */
  shards: ShardSession;
  /** This worker's claim on the partition in this generation (LogPosition.claim). */
  fence: string;
}

/** What a position knows of its partition's writes on the shards (a cluster; `ShardWrites`). */
export interface ShardSession {
  /** Shard → the count its checkpoint recorded when the position was established. */
  readonly recorded: ReadonlyMap<number, number>;
  /**
   * Shard → the tokens it may hold from this worker's calls since: the last one confirmed, then
   * those of later calls whose replies never came.
   */
  readonly calls: Map<number, string[]>;
}

export interface ChunkShardWrites extends ShardWrites {
  /** Shard → the write count this chunk's calls left on it. */
  readonly written: ReadonlyMap<number, number>;
}

export interface PartitionPositionsOptions {
  log: LogPosition;
  admin: Pick<Admin, "fetchTopicOffsets" | "fetchOffsets" | "fetchTopicIds">;
  topic: string;
  groupId: string;
  seek(partition: number, offset: string): void;
  /** Runs before this worker opens an epoch (restores what lives beside the rollups: tokens). */
  beforeOpening(): Promise<void>;
  logger: Logger;
  metrics: IngestMetrics;
  /** The clock of the "as of" instants (Date.now). */
  now?: () => number;
  /**
   * A topic that no longer holds its first events is replayed as it is and the view goes live
   * (the rebuild's `--allow-partial`). Otherwise such a view is `incomplete`.
   */
  acceptTrimmed?: boolean;
}

const LOST = "Redis lost its state (no epoch, while the consumer group had committed offsets)";
const BEHIND = (shards: readonly number[]) =>
  `a Redis Cluster node lost writes the checkpoints say are applied (shards ${shards.join(", ")}); replaying the topic`;
const REGRESSED =
  "Redis went back to an earlier state (a snapshot, or a replica that lagged); replaying from its checkpoints";

export function createPartitionPositions(options: PartitionPositionsOptions): PartitionPositions {
  const { log, admin, topic, groupId, logger, metrics } = options;
  const now = options.now ?? Date.now;
  const identity = createTopicIdentity({ admin, log, topic, logger });
  const positions = new Map<number, Promise<Position>>();
  /** The settled ones, for synchronous reads. */
  const settled = new Map<number, Position>();
  const sentBelow = new Map<number, number>();
  const soughtTo = new Map<number, string>();
  let owned: readonly number[] = [];
  /** Batches begun per partition (each asks `resumeAt` first): the watcher leaves a busy one alone. */
  const begun = new Map<number, number>();
  let lastStatus: ViewStatus | undefined;
  /**
   * "<generation>:<partition>" → this worker's claim, made once per group assignment (not per
   * position: a worker that repositions must not take the partition back from a later writer).
   */
  const claims = new Map<string, Promise<string>>();
  const claimed = (generation: number, partition: number, floor?: string): Promise<string> => {
    const key = `${generation}:${partition}`;
    const known = claims.get(key);
    if (known !== undefined && floor === undefined) return known;
    const claim = log.claim(generation, partitionKey(topic, partition), floor);
    claims.set(key, claim);
    claim.catch(() => {
      if (claims.get(key) === claim) claims.delete(key);
    });
    return claim;
  };

  const dropAll = () => {
    positions.clear();
    settled.clear();
  };

  async function topicOffsets() {
    return admin.fetchTopicOffsets(topic);
  }

  /** Kafka's committed offsets: every message below one was handled, its dead letters sent. */
  async function rememberCommitted(): Promise<boolean> {
    const [committed] = await admin.fetchOffsets({ groupId, topics: [topic] });
    let any = false;
    for (const { partition, offset } of committed?.partitions ?? []) {
      if (Number(offset) < 0) continue;
      any = true;
      sentBelow.set(partition, Math.max(sentBelow.get(partition) ?? 0, Number(offset)));
    }
    return any;
  }

  /** Each partition that holds messages, to be replayed up to its end as it is now. */
  function replayTargets(offsets: Awaited<ReturnType<typeof topicOffsets>>): Map<string, string> {
    return new Map(
      offsets
        .filter((p) => Number(p.high) > Number(p.low))
        .map((p) => [partitionKey(topic, p.partition), p.high] as const),
    );
  }

  /** Partitions whose first events the topic no longer holds: a replay of them cannot be whole. */
  const trimmedOf = (offsets: Awaited<ReturnType<typeof topicOffsets>>) =>
    offsets.filter((p) => Number(p.low) > 0).map((p) => p.partition);
  const cannotRebuild = (why: string, trimmed: readonly number[]) =>
    `${why}, and the topic no longer holds its first events (partitions ${trimmed.join(", ")}): ` +
    "the view cannot be rebuilt whole; see the README's operations section";

  /** Opens the first epoch (or one after a loss): replay every partition up to its end now. */
  async function openEpoch(generation: number, record: LogRecord): Promise<void> {
    await options.beforeOpening();
    const offsets = await topicOffsets();
    const expected = await rememberCommitted();
    const targets = replayTargets(offsets);
    const trimmed = trimmedOf(offsets);
    // A new store too: nothing says the events the topic dropped were never needed.
    const incomplete = trimmed.length > 0 && options.acceptTrimmed !== true;
    const reason = incomplete
      ? cannotRebuild(expected ? LOST : "a new store", trimmed)
      : expected
        ? `${LOST}; replaying the topic`
        : "a new store; replaying the topic";
    const { opened, epoch } = await log.open(generation, {
      expected: record.epoch,
      state: incomplete ? "incomplete" : "replaying",
      reason,
      targets,
    });
    if (!opened) return;
    metrics.epochsOpened.inc({ cause: expected ? "lost" : "first" });
    metrics.logTruncated.set(incomplete ? 1 : 0);
    (incomplete ? logger.error : expected ? logger.warn : logger.info).call(
      logger,
      { generation, epoch, targets: Object.fromEntries(targets) },
      reason,
    );
  }

  /** Redis went back to an older state: readers must not trust their caches, and the view replays. */
  async function reopenEpoch(generation: number, epoch: string): Promise<void> {
    await options.beforeOpening();
    const offsets = await topicOffsets();
    await rememberCommitted();
    const targets = replayTargets(offsets);
    const reopened = await log.open(generation, {
      expected: epoch,
      state: "replaying",
      reason: REGRESSED,
      targets,
    });
    if (reopened.opened) {
      metrics.epochsOpened.inc({ cause: "regressed" });
      logger.warn({ generation, epoch: reopened.epoch }, REGRESSED);
    }
  }

  /** A cluster node lost writes below the checkpoints: the whole topic is replayed, in a new epoch. */
  async function replayWhole(generation: number, epoch: string, shards: readonly number[]): Promise<void> {
    await options.beforeOpening();
    const offsets = await topicOffsets();
    await rememberCommitted();
    const trimmed = trimmedOf(offsets);
    const reason = trimmed.length === 0 ? BEHIND(shards) : cannotRebuild(BEHIND(shards), trimmed);
    const { opened, epoch: now } = await log.open(generation, {
      expected: epoch,
      state: trimmed.length === 0 ? "replaying" : "incomplete",
      reason,
      targets: replayTargets(offsets),
      reset: true,
    });
    if (!opened) return;
    metrics.epochsOpened.inc({ cause: "shardBehind" });
    metrics.logTruncated.set(trimmed.length === 0 ? 0 : 1);
    logger.error({ generation, epoch: now, shards }, reason);
  }

  /**
   * Whether Kafka's group has committed past Redis' checkpoint of the partition: the worker commits
   * only after the checkpoint moved, so Redis then holds less than it once did (restored from an
   * older snapshot while no worker was there to see the checkpoint go back). Asked of a live view
   * only: a replay under way already covers it, and reopening would start it over.
   */
  async function committedPast(partition: number, record: LogRecord): Promise<boolean> {
    await rememberCommitted();
    const committed = sentBelow.get(partition);
    const stored = record.checkpoints.get(partitionKey(topic, partition));
    return committed !== undefined && stored !== undefined && committed > Number(stored);
  }

  /**
   * Why a partition's checkpoint cannot be resumed from without losing events: below the topic's
   * first offset (retention or deletion took events the view never applied), or above its end (the
   * topic was deleted and created again, or lost messages in an unclean leader election).
   */
  function gapOf(partition: number, stored: string | null, low: string, high: string): string | undefined {
    if (stored === null) return undefined;
    if (Number(stored) < Number(low)) {
      return (
        `partition ${partition}: the topic no longer holds offsets ${stored}-${Number(low) - 1}, ` +
        "which the view has not applied"
      );
    }
    if (Number(stored) > Number(high)) {
      return (
        `partition ${partition}: the view has applied up to offset ${Number(stored) - 1} but the topic ends ` +
        `at ${high} (deleted and created again, or it lost messages)`
      );
    }
    return undefined;
  }

  /**
   * A gap the view cannot fill (or a topic that is not the one it counts): a new epoch, incomplete
   * (503) until an operator rebuilds.
   */
  async function markIncomplete(
    generation: number,
    epoch: string,
    gap: string,
    offsets: Awaited<ReturnType<typeof topicOffsets>>,
  ): Promise<void> {
    const reason = `${gap}: the view cannot be made whole; see the README's operations section`;
    const { opened, epoch: now } = await log.open(generation, {
      expected: epoch,
      state: "incomplete",
      reason,
      targets: replayTargets(offsets),
    });
    if (!opened) return;
    metrics.epochsOpened.inc({ cause: "gap" });
    metrics.logTruncated.set(1);
    logger.error({ generation, epoch: now }, reason);
  }

  async function establish(generation: number, partition: number): Promise<Position> {
    let record = await log.read(generation);
    if (record.epoch === null) {
      await openEpoch(generation, record);
      record = await log.read(generation);
    } else if (record.state === "live" && (await committedPast(partition, record))) {
      await reopenEpoch(generation, record.epoch);
      record = await log.read(generation);
    }
    if (record.epoch === null) throw new Error("the view's epoch vanished while it was opened");
    const key = partitionKey(topic, partition);
    const stored = record.checkpoints.get(key) ?? null;
    const offsets = await topicOffsets();
    // Offsets the admin did not return (metadata not there yet) say nothing about a gap: the
    // partition resumes at its checkpoint as it is.
    const { low = stored ?? "0", high = stored ?? "0" } =
      offsets.find((p) => p.partition === partition) ?? {};
    const gap = (await identity.replaced(generation, record)) ?? gapOf(partition, stored, low, high);
    if (gap !== undefined && record.state !== "incomplete") {
      await markIncomplete(generation, record.epoch, gap, offsets);
      record = await log.read(generation);
      if (record.epoch === null) throw new Error("the view's epoch vanished while it was opened");
    }
    lastStatus = record;
    // Outside the topic's offsets (see gapOf): resume at the nearest one it holds.
    const next =
      stored === null || Number(stored) < Number(low) ? low : Number(stored) > Number(high) ? high : stored;
    const shards = { recorded: record.shardWrites?.get(key) ?? new Map<number, number>(), calls: new Map() };
    const fence = await claimed(generation, partition);
    return { generation, epoch: record.epoch, next, stored, shards, fence };
  }

  function resumeAt(generation: number, partition: number): Promise<Position> {
    begun.set(partition, (begun.get(partition) ?? 0) + 1);
    const known = positions.get(partition);
    if (known !== undefined) {
      return known.then((p) => (p.generation === generation ? p : refresh(generation, partition)));
    }
    return refresh(generation, partition);
  }

  function refresh(generation: number, partition: number): Promise<Position> {
    const pending = establish(generation, partition);
    settled.delete(partition);
    positions.set(partition, pending);
    pending.then(
      (position) => {
        if (positions.get(partition) === pending) settled.set(partition, position);
      },
      () => {
        if (positions.get(partition) === pending) positions.delete(partition);
      },
    );
    return pending;
  }

  function remember(position: Position, partition: number): void {
    positions.set(partition, Promise.resolve(position));
    settled.set(partition, position);
  }

  /** Whether Redis holds a checkpoint behind what this worker saw there: it went back in time. */
  function regressed(record: LogRecord, known: ReadonlyMap<number, Position>): Position | undefined {
    for (const [partition, position] of known) {
      const inRedis = record.checkpoints.get(partitionKey(topic, partition)) ?? null;
      if (position.epoch === record.epoch && Number(inRedis ?? -1) < Number(position.stored ?? -1))
        return position;
    }
    return undefined;
  }

  /** Seeks every owned partition to where the view stands now (its positions forgotten first). */
  async function reposition(generation: number): Promise<void> {
    dropAll();
    await seekIdle(generation, owned);
  }

  /**
   * Seeks each of `partitions` to where the view stands, unless a batch of it begins before the
   * seek: that batch reads the view itself (its position is newer than any forgotten or missing
   * here), seeks for itself if it must (mustSeek), and may have applied and moved on since.
   * Seeking it would replay what it applied (on a cluster, where no checkpoint guards the script
   * call, its dead letters would go out again); reading its position again would take the batch's
   * own from it.
   */
  async function seekIdle(generation: number, partitions: readonly number[]): Promise<void> {
    const begunBefore = new Map(partitions.map((p) => [p, begun.get(p) ?? 0]));
    const idle = (partition: number) => (begun.get(partition) ?? 0) === begunBefore.get(partition);
    for (const partition of partitions) {
      if (!idle(partition)) continue;
      const { next } = await refresh(generation, partition);
      if (idle(partition)) options.seek(partition, next);
    }
  }

  /**
   * An owned partition whose checkpoint is its high watermark holds every message appended before
   * the high watermark was asked for: its "as of" becomes the instant just before asking. Written
   * only if the checkpoint is still the one read (an advance to the same checkpoint: compare and
   * set), so a batch moving it meanwhile keeps its own. One offsets request per check, and none
   * while this worker owns no partition with a checkpoint.
   */
  async function refreshAsOf(generation: number, record: LogRecord): Promise<void> {
    const { epoch } = record;
    if (epoch === null) return;
    const withCheckpoint = owned.filter((p) => record.checkpoints.has(partitionKey(topic, p)));
    if (withCheckpoint.length === 0) return;
    const asOfMs = now();
    const offsets = await topicOffsets();
    for (const { partition, high } of offsets) {
      const key = partitionKey(topic, partition);
      const stored = record.checkpoints.get(key);
      if (!withCheckpoint.includes(partition) || stored === undefined || Number(stored) !== Number(high))
        continue;
      await log.advance(generation, { epoch, partition: key, expected: stored, next: stored, asOfMs });
    }
  }

  /**
   * Whether the topic turned out not to be the one the view counts (it was deleted and created
   * again while this worker ran): the view is then made incomplete. A failed check (the topic
   * missing for a moment) says nothing; the next one asks again.
   */
  async function topicReplaced(generation: number, record: LogRecord): Promise<boolean> {
    const { epoch } = record;
    // Incomplete already: only a rebuild (a new generation) makes it whole.
    if (epoch === null || record.state === "incomplete") return false;
    let replaced: string | undefined;
    try {
      replaced = await identity.replaced(generation, record);
    } catch (error) {
      logger.debug({ err: error }, "checking the topic's id failed; the next check asks again");
      return false;
    }
    if (replaced === undefined) return false;
    await markIncomplete(generation, epoch, replaced, await topicOffsets());
    return true;
  }

  return {
    resumeAt,

    async advance(partition, position, next, asOfMs, shardWrites) {
      const { generation } = position;
      const result = await log.advance(generation, {
        epoch: position.epoch,
        partition: partitionKey(topic, partition),
        expected: position.stored,
        next,
        ...(asOfMs === undefined ? {} : { asOfMs }),
        ...(shardWrites === undefined || shardWrites.size === 0 ? {} : { shardWrites }),
      });
      if (result.kind === "advanced") {
        const moved = { ...position, next, stored: next };
        if (settled.get(partition)?.epoch === position.epoch) remember(moved, partition);
        if (result.state === "live" && lastStatus?.state !== "live")
          lastStatus = await log.status(generation);
        return moved;
      }
      if (result.kind === "moved" && Number(result.checkpoint ?? -1) < Number(position.stored ?? -1)) {
        await reopenEpoch(generation, position.epoch);
      }
      logger.warn(
        { generation, partition, result },
        "the view moved under this worker; resuming from its checkpoint",
      );
      await reposition(generation);
      return undefined;
    },

    shardWrites({ shards, fence }) {
      const written = new Map<number, number>();
      return {
        fence,
        written,
        least: (shard) => shards.recorded.get(shard) ?? 0,
        tokens: (shard) => shards.calls.get(shard) ?? [],
        wrote(shard, count, token) {
          shards.calls.set(shard, [token]);
          written.set(shard, Math.max(count, written.get(shard) ?? 0));
        },
        // Before a first confirmed call the count alone is checked, which an unconfirmed one only raises.
        unconfirmed(shard, token) {
          shards.calls.get(shard)?.push(token);
        },
      };
    },

    shardBehind: (position, shards) => replayWhole(position.generation, position.epoch, shards),

    async fenced(partition, { generation }, shardFence) {
      const forget = () => {
        positions.delete(partition);
        settled.delete(partition);
        return true;
      };
      // A rebalance gave the partition to another member since the batch began.
      if (!owned.includes(partition)) return forget();
      // This worker's claim now: a new assignment may have claimed again since the position was
      // taken, and its own later claim is no other writer's.
      const own = await claimed(generation, partition);
      const latest = await log.fenceOf(generation, partitionKey(topic, partition));
      if (latest !== null && compareFences(latest, own) > 0) return forget();
      if (compareFences(shardFence, own) > 0) await claimed(generation, partition, shardFence);
      return false;
    },

    mustSeek(partition, first, next) {
      if (first === next || (Number(first) > Number(next) && soughtTo.get(partition) === next)) {
        soughtTo.delete(partition);
        return false;
      }
      soughtTo.set(partition, next);
      return true;
    },

    deadLettersSentBelow: (partition) => sentBelow.get(partition) ?? 0,

    assigned(partitions) {
      owned = [...partitions];
      // A new assignment of the group: every partition it gives is claimed again.
      claims.clear();
      for (const partition of positions.keys()) if (!owned.includes(partition)) positions.delete(partition);
    },

    async watch(generation, force = false) {
      const current = await generation();
      // What this worker knew before the read: a batch may advance a checkpoint while the read is
      // under way, and the record, older than that, must not read as Redis going back.
      const known = new Map(settled);
      const record = await log.read(current);
      lastStatus = record;
      // Whoever made it so (this worker, another, or a rebuild that switched to a whole generation).
      metrics.logTruncated.set(record.state === "incomplete" ? 1 : 0);
      // A shard below the counts recorded with the checkpoints: its node lost writes (a cluster).
      const behind = record.epoch === null ? [] : await log.shardsBehind(current, record);
      if (behind.length > 0 && record.epoch !== null) {
        await replayWhole(current, record.epoch, behind);
        return reposition(current);
      }
      if (await topicReplaced(current, record)) return reposition(current);
      const back = record.epoch === null ? undefined : regressed(record, known);
      if (back !== undefined && record.epoch !== null) await reopenEpoch(current, record.epoch);
      const stale =
        force ||
        back !== undefined ||
        record.epoch === null ||
        [...settled.values()].some((p) => p.epoch !== record.epoch || p.generation !== current);
      if (stale) return reposition(current);
      // Partitions newly given to this worker: an idle one gets no batch that would seek it.
      await seekIdle(
        current,
        owned.filter((p) => !positions.has(p)),
      );
      await refreshAsOf(current, record).catch((error: unknown) =>
        logger.debug(
          { err: error },
          "refreshing the partitions' as-of instants failed; the next check tries again",
        ),
      );
    },

    status: () => lastStatus,
  };
}
