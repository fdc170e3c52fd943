import {
  createTokenRecordSigner,
  FUTURE_TOLERANCE_HOURS,
  MAX_DECOMPRESSED_BATCH_BYTES,
  RECORDINGS_DLQ_TOPIC,
  RECORDINGS_TOPIC,
  TOKENS_TOPIC,
} from "@vu/events";
import {
  checkKafkaSasl,
  checkRetention,
  envInt,
  envLogLevel,
  kafkaEnvShape,
  parseEnv,
  redisEnvShape,
  retentionEnvShape,
  retentionFromEnv,
  tokenSigningEnvShape,
} from "@vu/service-runtime";
import { z } from "zod";
import { DEFAULT_MAX_BYTES_PER_PARTITION, type IngestWorkerConfig } from "./app";

export const workerEnvSchema = z
  .object({
    ...kafkaEnvShape,
    KAFKA_CLIENT_ID: z.string().min(1).default("usage-ingest-worker"),
    KAFKA_GROUP_ID: z.string().min(1).default("usage-stats-ingest"),
    KAFKA_SESSION_TIMEOUT_MS: envInt(30_000, { min: 6_000 }),
    KAFKA_HEARTBEAT_INTERVAL_MS: envInt(3_000, { min: 100 }),
    RECORDINGS_TOPIC: z.string().min(1).default(RECORDINGS_TOPIC),
    DLQ_TOPIC: z.string().min(1).default(RECORDINGS_DLQ_TOPIC),
    TOKENS_TOPIC: z.string().min(1).default(TOKENS_TOPIC),
    ...tokenSigningEnvShape,
    TOKENS_REVOCATION_CHECK_MS: envInt(10_000, { min: 100, max: 600_000 }),
    PARTITIONS_CONSUMED_CONCURRENTLY: envInt(3, { min: 1, max: 64 }),
    KAFKA_MAX_BYTES_PER_PARTITION: envInt(DEFAULT_MAX_BYTES_PER_PARTITION, { min: 1024 }),
    KAFKA_MAX_DECOMPRESSED_BATCH_BYTES: envInt(MAX_DECOMPRESSED_BATCH_BYTES, { min: 1024 }),
    ...redisEnvShape,
    DEDUPE_WINDOW_HOURS: envInt(7 * 24, { min: 1 }),
    /**
     * docs/contract.md §9 `percentiles`: count each recording's processing times into percentile
     * sketches beside the sums (docs/decisions/0027-percentile-sketches.md). Off by default: they
     * cost Redis memory and CPU per recording.
     */
    PERCENTILE_SKETCHES: z
      .enum(["true", "false"], { error: "must be true or false" })
      .default("false")
      .transform((v) => v === "true"),
    FUTURE_TOLERANCE_HOURS: envInt(FUTURE_TOLERANCE_HOURS),
    /** /healthz, /readyz and /metrics (the ops server). */
    OPS_PORT: envInt(9464, { max: 65_535 }),
    LOG_LEVEL: envLogLevel,
    ...retentionEnvShape,
  })
  .superRefine((env, ctx) => {
    checkRetention(env, ctx);
    checkKafkaSasl(env, ctx);
    // KafkaJS needs several heartbeats per session, or a slow batch gets the member evicted.
    if (env.KAFKA_HEARTBEAT_INTERVAL_MS * 3 > env.KAFKA_SESSION_TIMEOUT_MS) {
      ctx.addIssue({
        code: "custom",
        path: ["KAFKA_HEARTBEAT_INTERVAL_MS"],
        message: "must be at most a third of KAFKA_SESSION_TIMEOUT_MS",
      });
    }
  });

export type WorkerEnv = z.output<typeof workerEnvSchema>;

export function loadWorkerEnv(env: Record<string, string | undefined> = process.env): Readonly<WorkerEnv> {
  return parseEnv(workerEnvSchema, env);
}

/** The worker's settings from its environment (shared by `main` and `rebuild`). */
export function workerConfigFromEnv(env: WorkerEnv): Omit<IngestWorkerConfig, "generation"> {
  return {
    topic: env.RECORDINGS_TOPIC,
    dlqTopic: env.DLQ_TOPIC,
    tokensTopic: env.TOKENS_TOPIC,
    tokenRecords: createTokenRecordSigner({
      current: env.TOKENS_SIGNING_KEY,
      previous: env.TOKENS_SIGNING_KEYS_PREVIOUS,
    }),
    revocationCheckMs: env.TOKENS_REVOCATION_CHECK_MS,
    groupId: env.KAFKA_GROUP_ID,
    sessionTimeoutMs: env.KAFKA_SESSION_TIMEOUT_MS,
    heartbeatIntervalMs: env.KAFKA_HEARTBEAT_INTERVAL_MS,
    partitionsConsumedConcurrently: env.PARTITIONS_CONSUMED_CONCURRENTLY,
    maxBytesPerPartition: env.KAFKA_MAX_BYTES_PER_PARTITION,
    maxDecompressedBatchBytes: env.KAFKA_MAX_DECOMPRESSED_BATCH_BYTES,
    dedupeWindowMs: env.DEDUPE_WINDOW_HOURS * 3_600_000,
    futureToleranceMs: env.FUTURE_TOLERANCE_HOURS * 3_600_000,
    retention: retentionFromEnv(env),
    percentileSketches: env.PERCENTILE_SKETCHES,
  };
}
