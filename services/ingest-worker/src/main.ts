import {
  createLogger,
  createOpsServer,
  kafkaLogCreator,
  kafkaLogLevel,
  listen,
  onShutdown,
  registerRedisMetrics,
  retryWithBackoff,
} from "@vu/service-runtime";
import { createKeyspace, createRedisClient, redisHealth } from "@vu/store";
import { Kafka } from "kafkajs";
import { createIngestWorker, type IngestWorker, WORKER_REDIS_OPTIONS } from "./app";
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
const redis = createRedisClient(env.REDIS_URL, { ...WORKER_REDIS_OPTIONS });
const metrics = createIngestMetrics();
const makeWorker = () =>
  createIngestWorker({
    kafka,
    redis,
    keyspace: createKeyspace({ prefix: env.REDIS_PREFIX }),
    logger,
    metrics,
    config: {
      ...workerConfigFromEnv(env),
      // A new consumer group starts at the beginning of the topic, so a first deploy loses
      // nothing; a group with committed offsets resumes from them.
      fromBeginning: true,
    },
  });

let stopping = false;
let worker: IngestWorker = supervised(makeWorker());

/**
 * kafkajs restarts its consumer after most failures, but gives up on some (e.g. no group
 * coordinator after a long broker outage). Then this process starts a fresh consumer, with
 * backoff, instead of exiting: an outage pauses ingest, it does not end it. Nothing is lost either
 * way, since offsets are committed only after Redis has the batch.
 */
function supervised(candidate: IngestWorker): IngestWorker {
  candidate.consumer.on(candidate.consumer.events.CRASH, ({ payload }) => {
    logger.error({ err: payload.error, restart: payload.restart }, "consumer crashed");
    if (!payload.restart && !stopping) void replace(candidate);
  });
  return candidate;
}

async function replace(crashed: IngestWorker): Promise<void> {
  await crashed.stop().catch(() => undefined);
  worker = await retryWithBackoff(
    async () => {
      const next = supervised(makeWorker());
      try {
        await next.start();
        return next;
      } catch (error) {
        await next.stop().catch(() => undefined);
        throw error;
      }
    },
    {
      shouldContinue: () => !stopping,
      initialDelayMs: 1_000,
      maxDelayMs: 30_000,
      onRetry: (error, attempt) => logger.warn({ err: error, attempt }, "restarting the consumer"),
    },
  );
  logger.info("consumer restarted");
}

registerRedisMetrics(metrics.registry, () => redisHealth(redis));
// Say loudly at every (re)connection when this Redis could lose data; /readyz says it too.
redis.on("ready", () => {
  void redisHealth(redis).then(({ ok, reasons }) => {
    if (!ok) logger.error({ reasons }, "redis is not fit to count into; /readyz reports unavailable");
  });
});
const ops = createOpsServer({ registry: metrics.registry, ready: () => worker.ready() });
try {
  await listen(ops, env.METRICS_PORT);
} catch (error) {
  logger.fatal({ err: error }, (error as Error).message);
  process.exit(1);
}
logger.info({ port: env.METRICS_PORT }, "ops endpoints listening");
await worker.start();
logger.info({ topic: env.RECORDINGS_TOPIC, group: env.KAFKA_GROUP_ID }, "ingest worker consuming");

onShutdown(
  [
    () => {
      stopping = true;
      return worker.stop();
    },
    async () => {
      ops.close();
      await redis.quit();
    },
  ],
  { logger },
);
