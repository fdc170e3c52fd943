import { sleep } from "@vu/infra";
import {
  createIngestMetrics,
  createIngestWorker,
  type IngestMetrics,
  type IngestWorker,
  loadWorkerEnv,
  WORKER_REDIS_OPTIONS,
  workerConfigFromEnv,
} from "@vu/ingest-worker";
import { createLogger } from "@vu/service-runtime";
import { createKeyspace, createRedisClient } from "@vu/store";
import type { Kafka } from "kafkajs";
import type { IsolatedNames } from "./stack";

/** The worker's production defaults (its env schema with nothing set), so the tests track them. */
const defaults = loadWorkerEnv({});

export interface RunningWorker {
  /** The current incarnation. */
  worker(): IngestWorker;
  /** Shared by all incarnations. */
  metrics: IngestMetrics;
  /** Consumer crashes seen; kafkajs restarts the consumer itself after the retriable ones. */
  crashes: string[];
  /** Times a consumer joined its group: more than once means it met a rebalance or an outage. */
  readonly joins: number;
  /** Incarnations started after a crash kafkajs does not restart from (what a supervisor does). */
  restarts: number;
  stop(): Promise<void>;
}

/**
 * The ingest worker in-process (createIngestWorker), reading the topic from the beginning, with the
 * production defaults (session timeout, dedupe window, future tolerance, retention, ...). `nowMs`
 * fixes its clock.
 *
 * Supervised like the real process: main.ts exits on a consumer crash kafkajs will not restart
 * from (e.g. KafkaJSGroupCoordinatorNotFound after a long broker outage) and the deployment
 * restarts it (docker-compose `restart: unless-stopped`); here a new incarnation is started.
 */
export async function startInProcessWorker(options: {
  kafka: Kafka;
  redisUrl: string;
  names: IsolatedNames;
  nowMs?: number;
}): Promise<RunningWorker> {
  // As main.ts builds it: a command fails after 2 retries or a timeout; the worker's retry takes over.
  const redis = createRedisClient(options.redisUrl, { ...WORKER_REDIS_OPTIONS });
  redis.on("error", () => undefined);
  const metrics = createIngestMetrics();
  const { nowMs } = options;
  const crashes: string[] = [];
  let joins = 0;
  let stopped = false;
  let restarts = 0;

  const incarnation = (): IngestWorker => {
    const worker = createIngestWorker({
      kafka: options.kafka,
      redis,
      keyspace: createKeyspace({ prefix: options.names.prefix }),
      logger: createLogger("e2e-worker", process.env.VU_E2E_WORKER_LOG === "1" ? "debug" : "silent"),
      metrics,
      config: {
        ...workerConfigFromEnv(defaults),
        topic: options.names.topic,
        dlqTopic: options.names.dlqTopic,
        groupId: options.names.groupId,
        fromBeginning: true,
      },
      ...(nowMs === undefined ? {} : { now: () => nowMs }),
    });
    worker.consumer.on(worker.consumer.events.GROUP_JOIN, () => {
      joins++;
    });
    worker.consumer.on(worker.consumer.events.CRASH, ({ payload }) => {
      crashes.push(`${payload.error.name}: ${payload.error.message} (restart: ${payload.restart})`);
      if (!payload.restart && !stopped) void replace();
    });
    return worker;
  };

  let current = incarnation();
  async function replace(): Promise<void> {
    await current.stop().catch(() => undefined);
    // Like a supervisor: start again, with a pause between attempts, until one starts.
    while (!stopped) {
      restarts++;
      current = incarnation();
      try {
        await current.start();
        return;
      } catch {
        await current.stop().catch(() => undefined);
        await sleep(1_000);
      }
    }
  }

  await current.start();
  return {
    worker: () => current,
    metrics,
    crashes,
    get joins() {
      return joins;
    },
    get restarts() {
      return restarts;
    },
    async stop() {
      stopped = true;
      await current.stop();
      redis.disconnect();
    },
  };
}
