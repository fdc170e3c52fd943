import {
  createIngestMetrics,
  createIngestWorker,
  createWorkerSupervisor,
  type IngestMetrics,
  type IngestWorker,
  type IngestWorkerConfig,
  loadWorkerEnv,
  WORKER_REDIS_OPTIONS,
  workerConfigFromEnv,
} from "@vu/ingest-worker";
import { createLogger } from "@vu/service-runtime";
import { createKeyspace, createRedisClient, type RedisClient } from "@vu/store";
import type { Kafka } from "kafkajs";
import type { IsolatedNames } from "./names";
import { redisUrl, TEST_TOKENS_SIGNING_KEY } from "./stackEnv";

/** Worker variables for suites that stop and start workers: short sessions, so rebalances are quick. */
export const QUICK_REBALANCE_ENV = {
  KAFKA_SESSION_TIMEOUT_MS: "10000",
  KAFKA_HEARTBEAT_INTERVAL_MS: "1000",
} as const;

/**
 * The worker's config as the service (`runWorker.ts`) derives it from its environment (the env
 * schema's defaults, the test kit's signing key, `env` over them), on this test's topics and
 * group: tests never keep a copy of the defaults.
 */
export function workerConfig(
  names: Omit<IsolatedNames, "prefix">,
  env: Record<string, string> = {},
): Omit<IngestWorkerConfig, "generation"> {
  return workerConfigFromEnv(
    loadWorkerEnv({
      TOKENS_SIGNING_KEY: TEST_TOKENS_SIGNING_KEY,
      // The suites check percentiles too (docs/contract.md §9): the kit's workers keep sketches.
      PERCENTILE_SKETCHES: "true",
      ...env,
      RECORDINGS_TOPIC: names.topic,
      DLQ_TOPIC: names.dlqTopic,
      KAFKA_GROUP_ID: names.groupId,
    }),
  );
}

export interface InProcessWorkerOptions {
  kafka: Kafka;
  names: IsolatedNames;
  /** Default: a client on the test stack's Redis, built as `runWorker.ts` builds it. */
  redis?: RedisClient;
  redisUrl?: string;
  /** Worker variables over the production defaults, e.g. `QUICK_REBALANCE_ENV`. */
  env?: Record<string, string>;
  /** Fixes the worker's clock. */
  nowMs?: number;
  /**
   * Pauses the consumer (see `InProcessWorker.pauseConsumer`) as it first joins its group, before
   * its first fetch: the worker reads nothing of its topic until `resumeConsumer`.
   */
  pausedAtStart?: boolean;
}

export interface InProcessWorker {
  /** The worker running now (a new one after each supervised restart). */
  worker(): IngestWorker;
  /** Shared by all incarnations. */
  metrics: IngestMetrics;
  /** Consumer crashes seen; kafkajs restarts the consumer itself after the retriable ones. */
  crashes: string[];
  /** Times a consumer joined its group: more than once means it met a rebalance or an outage. */
  readonly joins: number;
  /** Workers the supervisor started after a crash kafkajs does not restart from. */
  readonly restarts: number;
  /**
   * Pauses the running consumer's topic (kafkajs `pause`): the batches it has fetched are still
   * applied and committed, nothing more is fetched (a fetch already under way is dropped) until
   * `resumeConsumer`. A consumer kafkajs or the supervisor starts again after a crash is not paused.
   */
  pauseConsumer(): void;
  /** Undoes `pauseConsumer` (nothing to undo on a consumer restarting after a crash: it starts unpaused). */
  resumeConsumer(): void;
  stop(): Promise<void>;
}

/**
 * The ingest worker in-process, reading its topic from the beginning, under the same supervisor
 * as the service (`runWorker.ts`; a consumer kafkajs gives up on is replaced, with backoff).
 */
export async function startInProcessWorker(options: InProcessWorkerOptions): Promise<InProcessWorker> {
  const ownRedis = options.redis === undefined;
  const redis =
    options.redis ?? createRedisClient(options.redisUrl ?? redisUrl(), { ...WORKER_REDIS_OPTIONS });
  // Tests that stop Redis expect connection errors; the worker's retries and the test see them.
  if (ownRedis) redis.on("error", () => undefined);
  const metrics = createIngestMetrics();
  const logger = createLogger("test-worker", process.env.VU_DEBUG_WORKER === "1" ? "debug" : "silent");
  const config = workerConfig(options.names, options.env);
  const { nowMs } = options;
  const crashes: string[] = [];
  let joins = 0;
  const topics = [{ topic: config.topic }];
  let pauseAtJoin = options.pausedAtStart === true;
  const supervisor = createWorkerSupervisor({
    logger,
    // Restarts as production does, with a shorter ceiling: tests wait for the broker to come back.
    maxDelayMs: 2_000,
    create: () =>
      createIngestWorker({
        kafka: options.kafka,
        redis,
        keyspace: createKeyspace({ prefix: options.names.prefix }),
        logger,
        metrics,
        config,
        ...(nowMs === undefined ? {} : { now: () => nowMs }),
      }),
    onIncarnation: (worker) => {
      worker.consumer.on(worker.consumer.events.GROUP_JOIN, () => {
        joins++;
        // Emitted once the partitions are assigned, before the consumer's first fetch.
        if (pauseAtJoin) {
          pauseAtJoin = false;
          worker.consumer.pause(topics);
        }
      });
      worker.consumer.on(worker.consumer.events.CRASH, ({ payload }) => {
        crashes.push(`${payload.error.name}: ${payload.error.message} (restart: ${payload.restart})`);
      });
    },
  });
  await supervisor.start();
  return {
    worker: () => supervisor.current(),
    metrics,
    crashes,
    get joins() {
      return joins;
    },
    get restarts() {
      return supervisor.restarts;
    },
    pauseConsumer() {
      supervisor.current().consumer.pause(topics);
    },
    resumeConsumer() {
      pauseAtJoin = false;
      try {
        supervisor.current().consumer.resume(topics);
      } catch {
        // Not running: kafkajs is restarting it after a crash, and it starts unpaused.
      }
    },
    async stop() {
      await supervisor.stop();
      if (ownRedis) redis.disconnect();
    },
  };
}

export { spawnWorker, stopProcess, workerProcessEnv } from "./workerProcess";
