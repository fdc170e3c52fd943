import { parseArgs } from "node:util";
import { createLogger, kafkaConnection, kafkaLogCreator, kafkaLogLevel } from "@vu/service-runtime";
import { createKeyspace, createRedisClient } from "@vu/store";
import { Kafka } from "kafkajs";
import { loadWorkerEnv, workerConfigFromEnv } from "../env";
import { IncompleteTopicError, runRebuild } from "../rebuild";

// `npm run rebuild [-- --allow-partial] [--keep-old]`: same environment as the worker (KAFKA_BROKERS,
// KAFKA_SASL_*, REDIS_URL, ...), and so the worker's Kafka and Redis permissions.
const { values } = parseArgs({
  options: {
    "allow-partial": { type: "boolean", default: false },
    "keep-old": { type: "boolean", default: false },
  },
});
const env = loadWorkerEnv();
const logger = createLogger("rebuild", env.LOG_LEVEL);
const redis = createRedisClient(env.REDIS_URL, { maxRetriesPerRequest: 2 });
try {
  const result = await runRebuild({
    kafka: new Kafka({
      clientId: "usage-rebuild",
      ...kafkaConnection(env),
      logLevel: kafkaLogLevel(env.LOG_LEVEL),
      logCreator: kafkaLogCreator(logger),
    }),
    redis,
    keyspace: createKeyspace({ prefix: env.REDIS_PREFIX }),
    logger,
    allowPartial: values["allow-partial"],
    keepOld: values["keep-old"],
    config: workerConfigFromEnv(env),
  });
  logger.info(result, "rebuild done");
} catch (error) {
  if (error instanceof IncompleteTopicError) {
    logger.error(error.message);
    process.exitCode = 2;
  } else {
    throw error;
  }
} finally {
  await redis.quit();
}
