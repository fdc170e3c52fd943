export { ConfigError, parseEnv } from "./env";
export { envBool, envInt, envList, envLogLevel, envRetentionDays } from "./envFields";
export { kafkaLogCreator, kafkaLogLevel } from "./kafkaLogs";
export { createLogger, type Logger } from "./logger";
export { createOpsServer, type OpsServerOptions } from "./opsServer";
export { checkRetention, retentionEnvShape, retentionFromEnv } from "./retentionEnv";
export { RetryAbortedError, type RetryOptions, retryWithBackoff, sleep } from "./retry";
export { onShutdown, type ShutdownOptions } from "./shutdown";
