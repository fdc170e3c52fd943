import {
  createLogger,
  createOpsServer,
  kafkaLogCreator,
  kafkaLogLevel,
  onShutdown,
} from "@vu/service-runtime";
import { createKeyspace, createRedisClient } from "@vu/store";
import { Kafka } from "kafkajs";
import { createIngestWorker } from "./app";
import { loadWorkerEnv, workerConfigFromEnv } from "./env";
import { createIngestMetrics } from "./metrics";

const env = loadWorkerEnv();
const logger = createLogger("ingest-worker", env.LOG_LEVEL);
const kafka = new Kafka({
  clientId: env.KAFKA_CLIENT_ID,
  brokers: env.KAFKA_BROKERS,
  logLevel: kafkaLogLevel(env.LOG_LEVEL),
  logCreator: kafkaLogCreator(logger),
});
const redis = createRedisClient(env.REDIS_URL, { maxRetriesPerRequest: 2 });
const metrics = createIngestMetrics();
const worker = createIngestWorker({
  kafka,
  redis,
  keyspace: createKeyspace({ prefix: env.REDIS_PREFIX }),
  logger,
  metrics,
  config: {
    ...workerConfigFromEnv(env),
    // A new consumer group starts at the beginning of the topic, so a first deploy loses nothing;
    // a group with committed offsets resumes from them.
    fromBeginning: true,
  },
});

worker.consumer.on(worker.consumer.events.CRASH, ({ payload }) => {
  logger.error({ err: payload.error, restart: payload.restart }, "consumer crashed");
  if (!payload.restart) process.exit(1);
});

const ops = createOpsServer({ registry: metrics.registry, ready: () => worker.ready() });
ops.listen(env.METRICS_PORT, () => logger.info({ port: env.METRICS_PORT }, "ops endpoints listening"));
await worker.start();
logger.info({ topic: env.RECORDINGS_TOPIC, group: env.KAFKA_GROUP_ID }, "ingest worker consuming");

onShutdown(
  [
    () => worker.stop(),
    async () => {
      ops.close();
      await redis.quit();
    },
  ],
  { logger },
);
