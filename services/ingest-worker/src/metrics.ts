import { type RedisHealthSample, registerRedisMetrics } from "@vu/service-runtime";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

export interface IngestMetrics {
  registry: Registry;
  applied: Counter;
  duplicates: Counter;
  deadLettered: Counter<"reason">;
  deadLetterFailures: Counter;
  undecodableBatches: Counter<"codec">;
  undecodableOffsets: Counter;
  batchSeconds: Histogram;
  lag: Gauge<"partition">;
  retries: Counter<"step">;
  replayed: Counter;
  epochsOpened: Counter<"cause">;
  partitionsFenced: Counter;
  logTruncated: Gauge;
  writeRefusals: Counter<"code">;
  tokenRecordsRefused: Counter<"reason">;
  revocationsReasserted: Counter;
}

export interface IngestMetricsOptions {
  /** Samples Redis for its gauges (`registerRedisMetrics`) on each scrape; without it, none. */
  redisHealth?: () => Promise<RedisHealthSample>;
}

/**
 * A fresh registry per worker, so tests can run several workers in one process. Everything the
 * worker's `/metrics` exports is registered here (infra/observability's alerts and dashboard are
 * checked against it: infra/src/observability/observability.test.ts).
 */
export function createIngestMetrics(options: IngestMetricsOptions = {}): IngestMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  if (options.redisHealth) registerRedisMetrics(registry, options.redisHealth);
  return {
    registry,
    applied: new Counter({
      name: "vu_ingest_events_applied_total",
      help: "Recordings counted into the rollups",
      registers: [registry],
    }),
    duplicates: new Counter({
      name: "vu_ingest_duplicates_skipped_total",
      help: "Recordings not counted because their (organization, recording_id) was counted before",
      registers: [registry],
    }),
    deadLettered: new Counter({
      name: "vu_ingest_dead_lettered_total",
      help: "Messages sent to the dead-letter topic, by kind of reason",
      labelNames: ["reason"],
      registers: [registry],
    }),
    deadLetterFailures: new Counter({
      name: "vu_ingest_dead_letter_failures_total",
      help: "Dead letters the dead-letter topic refused even without their value (they stay in the source topic)",
      registers: [registry],
    }),
    undecodableBatches: new Counter({
      name: "vu_ingest_undecodable_batches_total",
      help: "Record batches skipped because they could not be decoded (unknown codec, corrupt, or too large once decompressed), by the codec they named; each is dead-lettered whole",
      labelNames: ["codec"],
      registers: [registry],
    }),
    undecodableOffsets: new Counter({
      name: "vu_ingest_undecodable_offsets_total",
      help: "Offsets those batches spanned: records that are not counted until they are sent again",
      registers: [registry],
    }),
    batchSeconds: new Histogram({
      name: "vu_ingest_batch_apply_seconds",
      help: "Time to apply one chunk of a partition batch to Redis (and dead-letter its rejects)",
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [registry],
    }),
    lag: new Gauge({
      name: "vu_ingest_consumer_lag",
      help: "Messages behind the high watermark, per partition, after the last batch",
      labelNames: ["partition"],
      registers: [registry],
    }),
    retries: new Counter({
      name: "vu_ingest_retries_total",
      help: "Retries of a failed step (Redis or Kafka unavailable)",
      labelNames: ["step"],
      registers: [registry],
    }),
    replayed: new Counter({
      name: "vu_ingest_replayed_total",
      help: "Messages read again that the view had already applied (recognised by offset) or dead-lettered",
      registers: [registry],
    }),
    epochsOpened: new Counter({
      name: "vu_ingest_epochs_opened_total",
      help: "Epochs of the view this worker opened: first (a new store), lost (Redis lost its state), regressed (Redis went back to an older state), shardBehind (a cluster node lost writes: the topic is replayed whole), gap (a checkpoint outside the topic's offsets, or a topic whose id is not the one the view counts: incomplete)",
      labelNames: ["cause"],
      registers: [registry],
    }),
    partitionsFenced: new Counter({
      name: "vu_ingest_partitions_fenced_total",
      help: "Times this worker stopped writing a partition because a later writer had claimed it (a rebalance it missed, or a rebuild beside the live worker); it resumes when its group assigns the partition again",
      registers: [registry],
    }),
    logTruncated: new Gauge({
      name: "vu_ingest_log_truncated",
      help: "1 when the view needs events the topic no longer holds, its checkpoints are past the topic's end, or the topic is not the one it counts (another id: deleted and created again); it stays incomplete until a rebuild",
      registers: [registry],
    }),
    writeRefusals: new Counter({
      name: "vu_ingest_write_refusals_total",
      help: "Writes Redis refused for operational reasons (MISCONF, READONLY, NOAUTH, ...); retried, never dead-lettered",
      labelNames: ["code"],
      registers: [registry],
    }),
    tokenRecordsRefused: new Counter({
      name: "vu_token_records_refused_total",
      help: "Messages of the tokens topic a restore or the revocation watch did not take, by reason: malformed, tombstone, unsigned, unknown_key, bad_signature (not the tokens CLI's), conflict (signed, but Redis holds the hash for another organization or id); counted each time a read meets them",
      labelNames: ["reason"],
      registers: [registry],
    }),
    revocationsReasserted: new Counter({
      name: "vu_token_revocations_reasserted_total",
      help: "Revocations of the tokens topic that Redis had lost (an older state, emptied) and the worker wrote again",
      registers: [registry],
    }),
  };
}

/**
 * After a rebalance: drops the lag of every partition the gauge shows that this worker no longer
 * holds, which would otherwise stay at its last value forever (another worker shows it now). Read
 * from the gauge itself, which the supervisor's workers share, so a partition an earlier one held
 * is dropped too.
 */
export async function forgetLagOfOthers(lag: Gauge<"partition">, assigned: readonly number[]): Promise<void> {
  for (const { labels } of (await lag.get()).values) {
    const partition = String(labels.partition);
    if (!assigned.includes(Number(partition))) lag.remove({ partition });
  }
}
