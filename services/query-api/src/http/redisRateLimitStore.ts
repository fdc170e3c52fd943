import type { RateLimitCounter } from "@vu/store";
import type { ClientRateLimitInfo, Store } from "express-rate-limit";

export interface RedisRateLimitStore extends Store {
  /** Runs the limiter's script once (on a key no token uses): what /readyz checks. */
  probe(): Promise<void>;
}

/**
 * express-rate-limit's per-token counters, kept in Redis by the store's counter so every replica
 * shares them. Its script reloads itself after a Redis restart, a failover or a `SCRIPT FLUSH`
 * (rate-limit-redis, used before, did not when the NOSCRIPT error reached it wrapped).
 *
 * Every failure is a StoreError, so while Redis is away a limited request answers 503 (fail
 * closed, see README "Rate limits"): the operations need Redis for their data anyway.
 */
export function createRedisRateLimitStore(counter: RateLimitCounter): RedisRateLimitStore {
  const increment = async (client: string): Promise<ClientRateLimitInfo> => {
    const { hits, msLeft } = await counter.hit(client);
    return { totalHits: hits, resetTime: new Date(Date.now() + msLeft) };
  };
  return {
    localKeys: false,
    increment,
    decrement: (client) => counter.undo(client),
    resetKey: (client) => counter.reset(client),
    async probe() {
      await increment("readiness-probe");
    },
  };
}
