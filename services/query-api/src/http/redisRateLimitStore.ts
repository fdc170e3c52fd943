import { readFileSync } from "node:fs";
import { type RedisClient, StoreError } from "@vu/store";
import type { ClientRateLimitInfo, Store } from "express-rate-limit";
import type { Result } from "ioredis";

declare module "ioredis" {
  interface RedisCommander<Context> {
    /** lua/countHit-1.lua: `[hits in the window, ms until it ends]`. */
    vuCountHitV2(key: string, windowMs: number): Result<[number, number], Context>;
  }
}

const COUNT_HIT_LUA = readFileSync(new URL("./lua/countHit-1.lua", import.meta.url), "utf8");

export interface RedisRateLimitStoreOptions {
  redis: RedisClient;
  /** Key prefix from the keyspace (the store package owns every key name). */
  prefix: string;
  windowMs: number;
}

export interface RedisRateLimitStore extends Store {
  /** Runs the limiter's own script once (on a key no token uses): what /readyz checks. */
  probe(): Promise<void>;
}

function unavailable(cause: unknown): StoreError {
  return new StoreError("rate limit store unavailable", { retriable: true, cause });
}

/**
 * The per-token counters of express-rate-limit, in Redis so every replica shares them.
 *
 * The script is defined with ioredis `defineCommand`, which sends EVALSHA and, when Redis answers
 * NOSCRIPT, sends the script itself (EVAL) on that connection, so on Redis Cluster the node that owns
 * the key reloads it. A Redis restarted without persistence, a failover or a `SCRIPT FLUSH` therefore
 * costs one EVAL, never an outage: rate-limit-redis, used before, loaded its script once with
 * SCRIPT LOAD and retried NOSCRIPT only when the error reached it unwrapped.
 *
 * Every failure becomes a StoreError, so while Redis is away a limited request answers 503 (fail
 * closed, see README "Rate limits"): the operations need Redis for their data anyway.
 */
export function createRedisRateLimitStore({
  redis,
  prefix,
  windowMs,
}: RedisRateLimitStoreOptions): RedisRateLimitStore {
  redis.defineCommand("vuCountHitV2", { numberOfKeys: 1, lua: COUNT_HIT_LUA });

  async function countHit(key: string): Promise<ClientRateLimitInfo> {
    let reply: [number, number];
    try {
      reply = await redis.vuCountHitV2(key, windowMs);
    } catch (cause) {
      throw unavailable(cause);
    }
    const [totalHits, msLeft] = reply;
    return { totalHits, resetTime: new Date(Date.now() + msLeft) };
  }

  async function run(command: "DECR" | "DEL", key: string): Promise<void> {
    try {
      await redis.call(command, key);
    } catch (cause) {
      throw unavailable(cause);
    }
  }

  return {
    prefix,
    localKeys: false,
    increment: (key) => countHit(prefix + key),
    decrement: (key) => run("DECR", prefix + key),
    resetKey: (key) => run("DEL", prefix + key),
    async probe() {
      await countHit(`${prefix}readiness-probe`);
    },
  };
}
