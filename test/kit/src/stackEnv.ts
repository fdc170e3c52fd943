/**
 * The Kafka and Redis the integration project's global setup resolved; it exports them as
 * KAFKA_BROKERS and REDIS_URL (infra/src/testing/globalSetup.ts). The fallbacks are the native
 * stack's ports, for a test file run by hand against `npm run stack:up`.
 */
export const brokers = (): string[] => (process.env.KAFKA_BROKERS ?? "127.0.0.1:9092").split(",");
export const redisUrl = (): string => process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
