/**
 * The Kafka and Redis the integration project's global setup resolved; it exports them as
 * KAFKA_BROKERS and REDIS_URL (infra/src/testing/globalSetup.ts). The fallbacks are the native
 * stack's ports, for a test file run by hand against `npm run stack:up`.
 */
export const brokers = (): string[] => (process.env.KAFKA_BROKERS ?? "127.0.0.1:9092").split(",");
export const redisUrl = (): string => process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

/**
 * The token records' signing key (`TOKENS_SIGNING_KEY`) of every worker and tokens CLI a test
 * starts, and of the records the test kit writes: fixed, so that a record one test signed verifies
 * in the worker it starts, in-process or spawned. Never a deployment's key.
 */
export const TEST_TOKENS_SIGNING_KEY = "vu-test-kit-token-records-4b8e1f6a2d9c7035";
