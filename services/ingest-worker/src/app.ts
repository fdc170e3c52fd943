import {
  createIdempotentProducer,
  DLQ_HEADERS,
  registerKafkaCodecs,
  type TokenRecordSigner,
} from "@vu/events";
import type { Logger, Readiness } from "@vu/service-runtime";
import { RetryAbortedError } from "@vu/service-runtime";
import {
  createGenerationSource,
  createLogPosition,
  createRollupWriter,
  createTokenStore,
  type Keyspace,
  type RedisClient,
  redisHealth,
  refusalCode,
} from "@vu/store";
import type { Retention } from "@vu/time-buckets";
import type { Consumer, Kafka, Producer } from "kafkajs";
import { describeError, handleBatch, PositionMovedError } from "./batchHandler";
import { createDeadLetterSender } from "./deadLetterSender";
import { forgetLagOfOthers, type IngestMetrics } from "./metrics";
import { createPartitionPositions } from "./positions/partitionPositions";
import { createRevocationWatch } from "./revocationWatch";
import { restoreTokens } from "./tokenRestore";
import { topicMaxMessageBytes, warnUnlessBrokerTimestamps } from "./topicLimits";
import { createUndecodableReport } from "./undecodableReport";

export interface IngestWorkerConfig {
  topic: string;
  dlqTopic: string;
  /** The compacted topic of token records, restored into Redis whenever a new epoch opens. */
  tokensTopic: string;
  /** Verifies the token records' signatures (`TOKENS_SIGNING_KEY`): the restore takes no other. */
  tokenRecords: TokenRecordSigner;
  /** How often every revocation of the tokens topic is written to Redis again (revocationWatch.ts). */
  revocationCheckMs: number;
  groupId: string;
  sessionTimeoutMs: number;
  heartbeatIntervalMs: number;
  partitionsConsumedConcurrently: number;
  /** Bytes fetched per partition and request; the default suits throughput (see below). */
  maxBytesPerPartition?: number;
  /** The most one record batch may decompress to; a larger one is undecodable. Default 128 MiB. */
  maxDecompressedBatchBytes?: number;
  dedupeWindowMs: number;
  futureToleranceMs: number;
  retention: Retention;
  /** Keep percentile sketches (docs/contract.md §9 `percentiles`): `PERCENTILE_SKETCHES`. */
  percentileSketches?: boolean;
  /** Write into this generation instead of the one readers use (the `rebuild` command). */
  generation?: number;
  /**
   * "count": dead letters are counted but not sent (a rebuild replays messages the live worker
   * has already dead-lettered). Default "send".
   */
  deadLetters?: "send" | "count";
  /**
   * Replay a topic that no longer holds its first events and go live (the rebuild's
   * `--allow-partial`); otherwise the view is `incomplete` (503) on such a topic.
   */
  acceptTrimmedTopic?: boolean;
}

export interface IngestWorkerDeps {
  kafka: Kafka;
  redis: RedisClient;
  keyspace: Keyspace;
  config: IngestWorkerConfig;
  logger: Logger;
  metrics: IngestMetrics;
  now?: () => number;
}

export interface IngestWorker {
  start(): Promise<void>;
  /** Finishes the batch in hand, commits, leaves the group. */
  stop(): Promise<void>;
  /** Connected to Kafka, and Redis answers on every node with a policy that evicts nothing. */
  ready(): Promise<Readiness>;
  consumer: Consumer;
}

export const DEFAULT_MAX_BYTES_PER_PARTITION = 32 * 1024 * 1024;
/** How often the worker checks that the view is where it left it (an emptied Redis is noticed within this). */
export const VIEW_WATCH_MS = 1_000;
/** A transient failure is reported by readiness while the last one is at most this old. */
const FAILURE_REPORT_MS = 15_000;

/**
 * How the worker's Redis client is built (runWorker.ts and the in-process test worker). A command fails
 * after 2 reconnection attempts or 15 s without a reply, and the worker's own retry (with backoff,
 * per organization) takes over: ioredis can otherwise leave a command that was in flight when the
 * connection dropped pending for good, which stalled a partition after a Redis restart. A command
 * that timed out but ran after all is found counted by the retry (dedupe), never counted twice.
 */
export const WORKER_REDIS_OPTIONS = { maxRetriesPerRequest: 2, commandTimeout: 15_000 } as const;

/**
 * The consumer: each partition batch goes through `handleBatch` (validate, dead-letter, aggregate,
 * apply, then resolve offsets). This file wires Kafka, Redis and the dead-letter producer.
 */
export function createIngestWorker(deps: IngestWorkerDeps): IngestWorker {
  const { kafka, redis, keyspace, config, logger, metrics } = deps;
  const now = deps.now ?? Date.now;
  // Every codec a producer may set (gzip, snappy, lz4, zstd), before the consumer fetches anything.
  registerKafkaCodecs(config.maxDecompressedBatchBytes);
  const maxBytesPerPartition = config.maxBytesPerPartition ?? DEFAULT_MAX_BYTES_PER_PARTITION;
  const consumer = kafka.consumer({
    groupId: config.groupId,
    sessionTimeout: config.sessionTimeoutMs,
    heartbeatInterval: config.heartbeatIntervalMs,
    maxWaitTimeInMs: 100,
    // Large fetches make large batches, which is what lets chunks overlap (docs/decisions/0004).
    maxBytesPerPartition,
    maxBytes: 2 * maxBytesPerPartition,
  });
  const producer: Producer = createIdempotentProducer(kafka);
  const writer = createRollupWriter({
    redis,
    keyspace,
    retention: config.retention,
    dedupeWindowMs: config.dedupeWindowMs,
    now,
    sketches: config.percentileSketches ?? false,
  });
  const generation = createGenerationSource({ redis, keyspace, fixed: config.generation, now });
  const admin = kafka.admin();
  const seek = (partition: number, offset: string) =>
    consumer.seek({ topic: config.topic, partition, offset });
  /** Partitions a later writer claimed (PartitionFencedError): paused until the group assigns them again. */
  const released = new Set<number>();
  const release = (partition: number) => {
    released.add(partition);
    consumer.pause([{ topic: config.topic, partitions: [partition] }]);
    metrics.partitionsFenced.inc();
    logger.warn({ partition }, "a later writer has claimed this partition; this worker stops writing it");
  };
  const tokens = createTokenStore({ redis, keyspace });
  const revocations = createRevocationWatch({
    kafka,
    topic: config.tokensTopic,
    signer: config.tokenRecords,
    tokens,
    logger,
    intervalMs: config.revocationCheckMs,
    reasserted: metrics.revocationsReasserted,
    refusals: metrics.tokenRecordsRefused,
  });
  const positions = createPartitionPositions({
    log: createLogPosition({ redis, keyspace }),
    admin,
    topic: config.topic,
    groupId: config.groupId,
    seek,
    // Tokens live in Redis beside the rollups: whatever lost the one lost the other.
    beforeOpening: async () => {
      await restoreTokens({
        kafka,
        topic: config.tokensTopic,
        signer: config.tokenRecords,
        tokens,
        logger,
        refusals: metrics.tokenRecordsRefused,
      });
    },
    logger,
    metrics,
    acceptTrimmed: config.acceptTrimmedTopic === true,
  });
  let connected = false;
  let watching: NodeJS.Timeout | undefined;
  let lastFailure: { step: string; message: string; at: number } | undefined;
  const undecodable = createUndecodableReport(logger, metrics);

  let watched: Promise<void> | undefined;
  /**
   * Follows the view (see PartitionPositions.watch), one check at a time (a reposition can outlast
   * the interval); a failure is retried at the next tick.
   */
  function watchView(): Promise<void> {
    watched ??= positions
      .watch(() => generation.current())
      .catch((error: unknown) =>
        logger.warn({ err: error }, "checking the view's position failed; trying again"),
      )
      .finally(() => {
        watched = undefined;
      });
    return watched;
  }

  function onTransientFailure(step: string, error: unknown): void {
    if (error === undefined) {
      lastFailure = undefined;
      return;
    }
    const code = refusalCode(error);
    if (code !== undefined) metrics.writeRefusals.inc({ code });
    lastFailure = { step, message: describeError(error), at: Date.now() };
  }

  async function deadLetterSender() {
    if (config.deadLetters === "count") return undefined;
    const maxMessageBytes = await topicMaxMessageBytes(kafka, config.dlqTopic, logger);
    return createDeadLetterSender({
      producer,
      topic: config.dlqTopic,
      maxMessageBytes,
      onUndeliverable: (record, error) => {
        metrics.deadLetterFailures.inc();
        const headers = record.headers ?? {};
        logger.error(
          {
            err: error,
            sourceTopic: String(headers[DLQ_HEADERS.sourceTopic]),
            sourcePartition: String(headers[DLQ_HEADERS.sourcePartition]),
            sourceOffset: String(headers[DLQ_HEADERS.sourceOffset]),
          },
          "the dead-letter topic refused a message even without its value; it stays only in the source topic",
        );
      },
    });
  }

  return {
    consumer,
    async start() {
      await producer.connect();
      await admin.connect();
      await warnUnlessBrokerTimestamps(kafka, config.topic, logger);
      await consumer.connect();
      connected = true;
      consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
        const assigned = payload.memberAssignment[config.topic] ?? [];
        if (released.size > 0) {
          consumer.resume([{ topic: config.topic, partitions: [...released] }]);
          released.clear();
        }
        positions.assigned(assigned);
        void forgetLagOfOthers(metrics.lag, assigned);
        void watchView();
      });
      const ctx = {
        writer,
        generation,
        positions,
        seek,
        release,
        onTransientFailure,
        onUndecodable: undecodable.report,
        metrics,
        logger,
        sendDeadLetters: await deadLetterSender(),
        futureToleranceMs: config.futureToleranceMs,
        now,
      };
      // Where to start is the view's checkpoint (partitionPositions.ts); a group without committed
      // offsets starts at the beginning until the first batch is sought there.
      await consumer.subscribe({ topics: [config.topic], fromBeginning: true });
      await consumer.run({
        autoCommit: true,
        autoCommitInterval: 1_000,
        eachBatchAutoResolve: false,
        partitionsConsumedConcurrently: config.partitionsConsumedConcurrently,
        eachBatch: async (payload) => {
          try {
            await handleBatch(ctx, payload);
          } catch (error) {
            // Stopping or rebalanced away: leave the offset unresolved; the next owner redoes it.
            if (error instanceof RetryAbortedError) return;
            // The view moved (Redis lost or rolled back its state): the partition was sought to
            // where the view stands, and is read again from there.
            if (error instanceof PositionMovedError) return;
            throw error;
          }
        },
      });
      watching = setInterval(() => void watchView(), VIEW_WATCH_MS);
      watching.unref();
      revocations.start();
    },
    async stop() {
      clearInterval(watching);
      // The consumer leaves its group at once; a revocation check under way may take a while to end.
      const watchStopped = revocations.stop();
      await consumer.disconnect();
      await watchStopped;
      await producer.disconnect();
      await admin.disconnect();
      connected = false;
    },
    async ready() {
      const health = await redisHealth(redis);
      const reasons = connected ? health.reasons : ["the Kafka consumer is not connected", ...health.reasons];
      const view = positions.status();
      // Not read yet (before the group join): the view may be a replay under way, so not ready.
      if (view === undefined) reasons.push("the view has not been read yet: joining the consumer group");
      else if (view.state !== "live") {
        reasons.push(
          `the view is ${view.state ?? "without an epoch"}: ${view.reason ?? "waiting for a worker"}`,
        );
      }
      if (lastFailure !== undefined && Date.now() - lastFailure.at <= FAILURE_REPORT_MS) {
        reasons.push(`retrying ${lastFailure.step}: ${lastFailure.message}`);
      }
      const skipped = undecodable.recent();
      if (skipped !== undefined) reasons.push(skipped);
      return { ok: reasons.length === 0, reasons };
    },
  };
}
