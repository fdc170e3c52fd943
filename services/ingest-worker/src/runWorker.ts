import {
  cachedReadiness,
  createLogger,
  createOpsServer,
  kafkaConnection,
  kafkaLogCreator,
  kafkaLogLevel,
  listenOrExit,
  onShutdown,
  type Tracing,
  warnWhenRedisUnfit,
} from "@vu/service-runtime";
import { createKeyspace, createRedisClient, redisHealth } from "@vu/store";
import { Kafka } from "kafkajs";
import { createIngestWorker, WORKER_REDIS_OPTIONS } from "./app";
import { loadWorkerEnv, workerConfigFromEnv } from "./env";
import { createIngestMetrics } from "./metrics";
import { createWorkerSupervisor } from "./supervisor";

/** The worker (main.ts runs it once tracing has started): its clients, ops endpoints, consumer and shutdown. */
export async function runWorker(tracing: Tracing): Promise<void> {
  const env = loadWorkerEnv();
  const logger = createLogger("ingest-worker", env.LOG_LEVEL);
  const kafka = new Kafka({
    clientId: env.KAFKA_CLIENT_ID,
    ...kafkaConnection(env),
    logLevel: kafkaLogLevel(env.LOG_LEVEL),
    logCreator: kafkaLogCreator(logger),
  });
  const redis = createRedisClient(env.REDIS_URL, { ...WORKER_REDIS_OPTIONS });
  const metrics = createIngestMetrics({ redisHealth: () => redisHealth(redis) });
  const supervisor = createWorkerSupervisor({
    logger,
    create: () =>
      createIngestWorker({
        kafka,
        redis,
        keyspace: createKeyspace({ prefix: env.REDIS_PREFIX }),
        logger,
        metrics,
        // Each partition resumes where the view's checkpoint in Redis says (a first deploy, or a
        // Redis that lost its state, from the beginning of the topic), not where Kafka's group is.
        config: workerConfigFromEnv(env),
      }),
  });

  warnWhenRedisUnfit(redis, {
    check: () => redisHealth(redis),
    logger,
    message: "redis is not fit to count into; /readyz reports unavailable",
  });
  const ops = createOpsServer({
    registry: metrics.registry,
    ready: cachedReadiness(() => supervisor.ready()),
  });
  await listenOrExit(ops, env.OPS_PORT, { logger });
  logger.info({ port: env.OPS_PORT }, "ops endpoints listening");
  await supervisor.start();
  logger.info({ topic: env.RECORDINGS_TOPIC, group: env.KAFKA_GROUP_ID }, "ingest worker consuming");

  onShutdown(
    [
      () => supervisor.stop(),
      async () => {
        ops.close();
        await redis.quit();
      },
      () => tracing.shutdown(),
    ],
    { logger },
  );
}
