import type { Logger } from "@vu/service-runtime";
import type { LogPosition, LogRecord } from "@vu/store";
import type { IngestMetrics } from "../metrics";
import type { CommittedOffsets } from "./committedOffsets";
import { cannotRebuild, replayTargets, type TopicOffsets, trimmedPartitions } from "./topicGaps";

const LOST = "Redis lost its state (no epoch, while the consumer group had committed offsets)";
const BEHIND = (shards: readonly number[]) =>
  `a Redis Cluster node lost writes the checkpoints say are applied (shards ${shards.join(", ")}); replaying the topic`;
const REGRESSED =
  "Redis went back to an earlier state (a snapshot, or a replica that lagged); replaying from its checkpoints";

export interface EpochOpeningOptions {
  log: Pick<LogPosition, "open">;
  topic: string;
  topicOffsets(): Promise<TopicOffsets>;
  committed: CommittedOffsets;
  /** Runs before this worker opens an epoch (restores what lives beside the rollups: tokens). */
  beforeOpening(): Promise<void>;
  /** A topic that no longer holds its first events is replayed as it is (`--allow-partial`). */
  acceptTrimmed: boolean;
  logger: Logger;
  metrics: IngestMetrics;
}

/**
 * The four reasons this worker opens a new epoch of the view, each only if no other worker opened
 * one since the epoch it saw (the log's compare and set): each says why, in the log hash, the
 * metric of epochs opened and the log.
 */
export class EpochOpening {
  constructor(private readonly options: EpochOpeningOptions) {}

  /** The first epoch (or one after a loss): replay every partition up to its end now. */
  async first(generation: number, record: LogRecord): Promise<void> {
    const { log, topic, metrics, logger } = this.options;
    await this.options.beforeOpening();
    const offsets = await this.options.topicOffsets();
    const expected = await this.options.committed.refresh();
    const targets = replayTargets(topic, offsets);
    const trimmed = trimmedPartitions(offsets);
    // A new store too: nothing says the events the topic dropped were never needed.
    const incomplete = trimmed.length > 0 && !this.options.acceptTrimmed;
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
  async afterRegression(generation: number, epoch: string): Promise<void> {
    const { log, topic, metrics, logger } = this.options;
    await this.options.beforeOpening();
    const offsets = await this.options.topicOffsets();
    await this.options.committed.refresh();
    const reopened = await log.open(generation, {
      expected: epoch,
      state: "replaying",
      reason: REGRESSED,
      targets: replayTargets(topic, offsets),
    });
    if (reopened.opened) {
      metrics.epochsOpened.inc({ cause: "regressed" });
      logger.warn({ generation, epoch: reopened.epoch }, REGRESSED);
    }
  }

  /** A cluster node lost writes below the checkpoints: the whole topic is replayed, in a new epoch. */
  async replayWhole(generation: number, epoch: string, shards: readonly number[]): Promise<void> {
    const { log, topic, metrics, logger } = this.options;
    await this.options.beforeOpening();
    const offsets = await this.options.topicOffsets();
    await this.options.committed.refresh();
    const trimmed = trimmedPartitions(offsets);
    const reason = trimmed.length === 0 ? BEHIND(shards) : cannotRebuild(BEHIND(shards), trimmed);
    const { opened, epoch: now } = await log.open(generation, {
      expected: epoch,
      state: trimmed.length === 0 ? "replaying" : "incomplete",
      reason,
      targets: replayTargets(topic, offsets),
      reset: true,
    });
    if (!opened) return;
    metrics.epochsOpened.inc({ cause: "shardBehind" });
    metrics.logTruncated.set(trimmed.length === 0 ? 0 : 1);
    logger.error({ generation, epoch: now, shards }, reason);
  }

  /**
   * A gap the view cannot fill (or a topic that is not the one it counts): a new epoch, incomplete
   * (503) until an operator rebuilds.
   */
  async incomplete(generation: number, epoch: string, gap: string, offsets: TopicOffsets): Promise<void> {
    const { log, topic, metrics, logger } = this.options;
    const reason = `${gap}: the view cannot be made whole; see the README's operations section`;
    const { opened, epoch: now } = await log.open(generation, {
      expected: epoch,
      state: "incomplete",
      reason,
      targets: replayTargets(topic, offsets),
    });
    if (!opened) return;
    metrics.epochsOpened.inc({ cause: "gap" });
    metrics.logTruncated.set(1);
    logger.error({ generation, epoch: now }, reason);
  }
}
