// What the integration project's global setup hands to every test through `inject(...)`.
declare module "vitest" {
  export interface ProvidedContext {
    /** Bootstrap brokers for kafkajs, e.g. ["127.0.0.1:9092"]; also in process.env.KAFKA_BROKERS. */
    kafkaBrokers: string[];
    /** redis:// URL of a single Redis; also in process.env.REDIS_URL. */
    redisUrl: string;
  }
}

export {};
