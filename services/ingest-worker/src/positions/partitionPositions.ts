import type { Logger } from "@vu/service-runtime";
import { type LogPosition, type LogRecord, partitionKey, type ViewStatus } from "@vu/store";
import type { Admin } from "kafkajs";
import type { IngestMetrics } from "../metrics";
import { refreshAsOf } from "./asOfRefresh";
import { CommittedOffsets } from "./committedOffsets";
import { EpochOpening } from "./epochOpening";
import { KnownPositions } from "./knownPositions";
import { PartitionClaims } from "./partitionClaims";
import { type ChunkShardWrites, chunkShardWrites, type Position } from "./position";
import { SeekTracking } from "./seekTracking";
import { gapOf, resumeOffset } from "./topicGaps";
import { createTopicIdentity } from "./topicIdentity";

export type { ChunkShardWrites, Position, ShardSession } from "./position";

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
   * Redis ignores them): the count the partition's checkpoint recorded on each shard, the id of
   * this worker's last call there, and what the chunk's calls leave (`written`, passed to
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

/**
 * Wires the parts, each owning its state: the positions known (KnownPositions), the claims
 * (PartitionClaims), the group's committed offsets (CommittedOffsets), the batches begun and seeks
 * made (SeekTracking); epochs are opened by EpochOpening, gaps found by topicGaps.ts, the topic's
 * id checked by topicIdentity.ts, idle partitions' "as of" moved by asOfRefresh.ts.
 */
export function createPartitionPositions(options: PartitionPositionsOptions): PartitionPositions {
  const { log, admin, topic, groupId, logger, metrics } = options;
  const now = options.now ?? Date.now;
  const topicOffsets = () => admin.fetchTopicOffsets(topic);
  const identity = createTopicIdentity({ admin, log, topic, logger });
  const committed = new CommittedOffsets(admin, groupId, topic);
  const epochs = new EpochOpening({
    log,
    topic,
    topicOffsets,
    committed,
    beforeOpening: options.beforeOpening,
    acceptTrimmed: options.acceptTrimmed === true,
    logger,
    metrics,
  });
  const claims = new PartitionClaims(log, topic);
  const known = new KnownPositions();
  const seeks = new SeekTracking();
  let owned: readonly number[] = [];
  let lastStatus: ViewStatus | undefined;

  async function establish(generation: number, partition: number): Promise<Position> {
    let record = await log.read(generation);
    const key = partitionKey(topic, partition);
    if (record.epoch === null) {
      await epochs.first(generation, record);
      record = await log.read(generation);
    } else if (
      // Asked of a live view only: a replay under way already covers it, and reopening would start it over.
      record.state === "live" &&
      (await committed.pastCheckpoint(partition, record.checkpoints.get(key)))
    ) {
      await epochs.afterRegression(generation, record.epoch);
      record = await log.read(generation);
    }
    if (record.epoch === null) throw new Error("the view's epoch vanished while it was opened");
    const stored = record.checkpoints.get(key) ?? null;
    const offsets = await topicOffsets();
    // Offsets the admin did not return (metadata not there yet) say nothing about a gap: the
    // partition resumes at its checkpoint as it is.
    const { low = stored ?? "0", high = stored ?? "0" } =
      offsets.find((p) => p.partition === partition) ?? {};
    const gap = (await identity.replaced(generation, record)) ?? gapOf(partition, stored, low, high);
    if (gap !== undefined && record.state !== "incomplete") {
      await epochs.incomplete(generation, record.epoch, gap, offsets);
      record = await log.read(generation);
      if (record.epoch === null) throw new Error("the view's epoch vanished while it was opened");
    }
    lastStatus = record;
    const shards = { recorded: record.shardWrites?.get(key) ?? new Map<number, number>(), calls: new Map() };
    const fence = await claims.fence(generation, partition);
    return { generation, epoch: record.epoch, next: resumeOffset(stored, low, high), stored, shards, fence };
  }

  function resumeAt(generation: number, partition: number): Promise<Position> {
    seeks.begin(partition);
    const lookup = known.lookup(partition);
    if (lookup !== undefined) {
      return lookup.then((p) => (p.generation === generation ? p : refresh(generation, partition)));
    }
    return refresh(generation, partition);
  }

  const refresh = (generation: number, partition: number) =>
    known.track(partition, establish(generation, partition));

  /** Whether Redis holds a checkpoint behind what this worker saw there: it went back in time. */
  function regressed(record: LogRecord, before: ReadonlyMap<number, Position>): Position | undefined {
    for (const [partition, position] of before) {
      const inRedis = record.checkpoints.get(partitionKey(topic, partition)) ?? null;
      if (position.epoch === record.epoch && Number(inRedis ?? -1) < Number(position.stored ?? -1))
        return position;
    }
    return undefined;
  }

  /** Seeks every owned partition to where the view stands now (its positions forgotten first). */
  async function reposition(generation: number): Promise<void> {
    known.clear();
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
    const idle = seeks.idleFromNow(partitions);
    for (const partition of partitions) {
      if (!idle(partition)) continue;
      const { next } = await refresh(generation, partition);
      if (idle(partition)) options.seek(partition, next);
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
    await epochs.incomplete(generation, epoch, replaced, await topicOffsets());
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
        if (known.settled(partition)?.epoch === position.epoch) known.remember(partition, moved);
        if (result.state === "live" && lastStatus?.state !== "live")
          lastStatus = await log.status(generation);
        return moved;
      }
      if (result.kind === "moved" && Number(result.checkpoint ?? -1) < Number(position.stored ?? -1)) {
        await epochs.afterRegression(generation, position.epoch);
      }
      logger.warn(
        { generation, partition, result },
        "the view moved under this worker; resuming from its checkpoint",
      );
      await reposition(generation);
      return undefined;
    },

    shardWrites: chunkShardWrites,

    shardBehind: (position, shards) => epochs.replayWhole(position.generation, position.epoch, shards),

    async fenced(partition, { generation }, shardFence) {
      // A rebalance gave the partition to another member since the batch began.
      const later =
        !owned.includes(partition) || (await claims.claimedByLaterWriter(generation, partition, shardFence));
      if (later) known.forget(partition);
      return later;
    },

    mustSeek: (partition, first, next) => seeks.mustSeek(partition, first, next),

    deadLettersSentBelow: (partition) => committed.sentBelow(partition),

    assigned(partitions) {
      owned = [...partitions];
      claims.newAssignment();
      known.dropLookupsOutside(owned);
    },

    async watch(generation, force = false) {
      const current = await generation();
      // What this worker knew before the read: a batch may advance a checkpoint while the read is
      // under way, and the record, older than that, must not read as Redis going back.
      const before = known.settledNow();
      const record = await log.read(current);
      lastStatus = record;
      // Whoever made it so (this worker, another, or a rebuild that switched to a whole generation).
      metrics.logTruncated.set(record.state === "incomplete" ? 1 : 0);
      // A shard below the counts recorded with the checkpoints: its node lost writes (a cluster).
      const behind = record.epoch === null ? [] : await log.shardsBehind(current, record);
      if (behind.length > 0 && record.epoch !== null) {
        await epochs.replayWhole(current, record.epoch, behind);
        return reposition(current);
      }
      if (await topicReplaced(current, record)) return reposition(current);
      const back = record.epoch === null ? undefined : regressed(record, before);
      if (back !== undefined && record.epoch !== null) await epochs.afterRegression(current, record.epoch);
      const stale =
        force ||
        back !== undefined ||
        record.epoch === null ||
        [...known.settledNow().values()].some((p) => p.epoch !== record.epoch || p.generation !== current);
      if (stale) return reposition(current);
      // Partitions newly given to this worker: an idle one gets no batch that would seek it.
      await seekIdle(
        current,
        owned.filter((p) => !known.hasLookup(p)),
      );
      await refreshAsOf({ log, topic, topicOffsets, now }, current, record, owned).catch((error: unknown) =>
        logger.debug(
          { err: error },
          "refreshing the partitions' as-of instants failed; the next check tries again",
        ),
      );
    },

    status: () => lastStatus,
  };
}
