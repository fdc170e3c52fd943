import {
  createIngestMetrics,
  createIngestWorker,
  type IngestMetrics,
  type IngestWorker,
} from "@vu/ingest-worker";
import { createLogger } from "@vu/service-runtime";
import { createKeyspace, createRedisClient } from "@vu/store";
import type { Kafka } from "kafkajs";
import { DEFAULT_RETENTION } from "./apiServer";
import type { IsolatedNames } from "./stack";

const DAY_MS = 86_400_000;

export interface RunningWorker {
  worker: IngestWorker;
  metrics: IngestMetrics;
  /** Consumer crashes seen (kafkajs restarts the consumer after retriable ones). */
  crashes: string[];
  stop(): Promise<void>;
}

/**
 * The ingest worker in-process (createIngestWorker), reading the topic from the beginning, with the
 * production defaults for dedupe window, future tolerance and retention. `nowMs` fixes its clock.
 */
export async function startInProcessWorker(options: {
  kafka: Kafka;
  redisUrl: string;
  names: IsolatedNames;
  nowMs?: number;
}): Promise<RunningWorker> {
  // As main.ts builds it: a command fails after 2 retries, and the worker's own retry takes over.
  const redis = createRedisClient(options.redisUrl, { maxRetriesPerRequest: 2 });
  redis.on("error", () => undefined);
  const metrics = createIngestMetrics();
  const { nowMs } = options;
  const worker = createIngestWorker({
    kafka: options.kafka,
    redis,
    keyspace: createKeyspace({ prefix: options.names.prefix }),
    logger: createLogger("e2e-worker", "silent"),
    metrics,
    config: {
      topic: options.names.topic,
      dlqTopic: options.names.dlqTopic,
      groupId: options.names.groupId,
      sessionTimeoutMs: 10_000,
      heartbeatIntervalMs: 1_000,
      partitionsConsumedConcurrently: 3,
      dedupeWindowMs: 7 * DAY_MS,
      futureToleranceMs: DAY_MS,
      retention: DEFAULT_RETENTION,
      fromBeginning: true,
    },
    ...(nowMs === undefined ? {} : { now: () => nowMs }),
  });
  const crashes: string[] = [];
  worker.consumer.on(worker.consumer.events.CRASH, ({ payload }) => {
    crashes.push(`${payload.error.message} (restart: ${payload.restart})`);
  });
  await worker.start();
  return {
    worker,
    metrics,
    crashes,
    async stop() {
      await worker.stop();
      redis.disconnect();
    },
  };
}
