import type { StartedTestContainer } from "testcontainers";
import type { Log } from "../log";

/** Confluent's image because @testcontainers/kafka drives its start script; 7.9 ships Kafka 3.9. */
const KAFKA_IMAGE = process.env.VU_KAFKA_IMAGE ?? "confluentinc/cp-kafka:7.9.0";
const REDIS_IMAGE = process.env.VU_REDIS_IMAGE ?? "redis:7.4-alpine";
/** The port @testcontainers/kafka exposes for clients outside the container network. */
const KAFKA_CLIENT_PORT = 9093;

export interface ContainerStack {
  kafkaBrokers: string[] | undefined;
  redisUrl: string | undefined;
  stop(): Promise<void>;
}

/** Starts the requested services in Docker; modules are loaded lazily (see dockerProbe). */
export async function startContainers(
  need: { kafka: boolean; redis: boolean },
  log: Log,
): Promise<ContainerStack> {
  const started: StartedTestContainer[] = [];
  const stop = async () => {
    await Promise.all(started.map((container) => container.stop()));
  };
  try {
    const [kafka, redis] = await Promise.all([
      need.kafka ? startKafka(log) : undefined,
      need.redis ? startRedis(log) : undefined,
    ]);
    if (kafka) started.push(kafka.container);
    if (redis) started.push(redis.container);
    return { kafkaBrokers: kafka?.brokers, redisUrl: redis?.url, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

async function startKafka(log: Log) {
  const { KafkaContainer } = await import("@testcontainers/kafka");
  log(`starting ${KAFKA_IMAGE} (KRaft) with Testcontainers`);
  const container = await new KafkaContainer(KAFKA_IMAGE)
    .withKraft()
    // The same broker settings as the native stack (see native/kafkaConfig.ts).
    .withEnvironment({
      KAFKA_AUTO_CREATE_TOPICS_ENABLE: "false",
      KAFKA_NUM_PARTITIONS: "6",
      KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR: "1",
    })
    .start();
  const brokers = [`${container.getHost()}:${container.getMappedPort(KAFKA_CLIENT_PORT)}`];
  return { container, brokers };
}

async function startRedis(log: Log) {
  const { RedisContainer } = await import("@testcontainers/redis");
  log(`starting ${REDIS_IMAGE} with Testcontainers`);
  const container = await new RedisContainer(REDIS_IMAGE)
    .withCommand(["redis-server", "--appendonly", "yes"])
    .start();
  return { container, url: container.getConnectionUrl() };
}
