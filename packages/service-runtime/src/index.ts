export { ConfigError, parseEnv } from "./env";
export { envInt, envList, envLogLevel, envRetentionDays } from "./envFields";
export {
  checkKafkaSasl,
  KAFKA_SASL_MECHANISMS,
  type KafkaConnection,
  type KafkaSaslMechanism,
  kafkaConnection,
  kafkaEnvSchema,
  kafkaEnvShape,
} from "./kafkaEnv";
export { kafkaLogCreator, kafkaLogLevel } from "./kafkaLogs";
export { ListenError, type ListenOrExitOptions, listen, listenOrExit } from "./listen";
export { createLogger, type Logger } from "./logger";
export { createOpsServer, type OpsServerOptions, type Readiness } from "./opsServer";
export { cachedReadiness, READINESS_MAX_AGE_MS } from "./readinessCache";
export { redisEnvSchema, redisEnvShape } from "./redisEnv";
export { redisInstrumentation } from "./redisInstrumentation";
export { type RedisHealthSample, registerRedisMetrics } from "./redisMetrics";
export { type RedisFitness, type WarnWhenRedisUnfitOptions, warnWhenRedisUnfit } from "./redisReadiness";
export { checkRetention, retentionEnvShape, retentionFromEnv } from "./retentionEnv";
export { RetryAbortedError, type RetryOptions, retryWithBackoff, sleep } from "./retry";
export {
  envSecret,
  envSecretList,
  SECRET_MIN_LENGTH,
  secretProblem,
  tokenSigningEnvShape,
} from "./secretEnv";
export { onShutdown, type ShutdownOptions } from "./shutdown";
export { type StartTracingOptions, startTracing, type Tracing } from "./tracing";
export {
  loadTracingEnv,
  type TracingEnv,
  tracesConfigured,
  tracingEnvSchema,
} from "./tracingEnv";
