// @vu/infra: what tests, benches and scripts need to find or run Kafka and Redis.
export { type Log, silentLog, stderrLog } from "./log";
export { ensureDebianPackage } from "./native/commands";
export {
  ensureKafka,
  type KafkaBrokerInfo,
  type KafkaBrokerOptions,
  restartKafka,
  type StopKafkaOptions,
  stopKafka,
} from "./native/kafkaBroker";
export { resolveKafkaClasspath } from "./native/kafkaClasspath";
export { kafkaAnswers, parseBrokers } from "./native/kafkaProbe";
export { freePort } from "./native/ports";
export {
  type RedisClusterHandle,
  type RedisClusterNode,
  type StartRedisClusterOptions,
  startRedisCluster,
} from "./native/redisCluster";
export { redisAnswers } from "./native/redisProbe";
export {
  type EnsureRedisOptions,
  ensureRedis,
  type RedisInfo,
  type RedisServerHandle,
  type StartRedisServerOptions,
  startRedisServer,
  stopRedis,
} from "./native/redisServer";
export { type ServiceProcessOptions, spawnService } from "./native/serviceProcess";
export { type StackInfo, stackDown, stackUp } from "./native/stack";
export {
  type EnsureTopicsOptions,
  type EnsureTopicsResult,
  ensureTopics,
  RECORDINGS_DLQ_TOPIC,
  RECORDINGS_TOPIC,
} from "./native/topics";
export {
  type RedisTarget,
  redisTargets,
  type StartedRedisTarget,
} from "./testing/redisTargets";
export { resolveTestStack, type StackSource, type TestStack } from "./testing/testStack";
export { sleep, type WaitForOptions, waitFor } from "./waitFor";
