import type { RedisOptions } from "ioredis";

/**
 * The API's Redis client settings (runApi.ts, and tests of outages). Fail fast while Redis is away
 * (a 503 at once) instead of queueing requests behind a reconnect; ioredis keeps reconnecting.
 */
export const API_REDIS_OPTIONS: Readonly<RedisOptions> = {
  enableOfflineQueue: false,
  maxRetriesPerRequest: 1,
  commandTimeout: 5_000,
};
