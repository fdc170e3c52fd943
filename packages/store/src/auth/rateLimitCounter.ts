import type { Keyspace } from "../format/keyspace";
import type { RedisClient } from "../redis/redisClient";
import { defineScripts } from "../redis/scriptLoader";
import { StoreError } from "../storeError";
import { AUTH_SCRIPTS } from "./authScripts";

/** What a rate limiter needs from Redis: one fixed-window counter per client, shared by replicas. */
export interface RateLimitCounter {
  /** Counts one request of `client`: the hits in its current window and the ms until it ends. */
  hit(client: string): Promise<{ hits: number; msLeft: number }>;
  /** Takes one hit back (a request the limiter decided not to count). */
  undo(client: string): Promise<void>;
  reset(client: string): Promise<void>;
}

function unavailable(cause: unknown): StoreError {
  return new StoreError("rate limit store unavailable", { retriable: true, cause });
}

/** Counters under `<prefix>:v3:ratelimit:<client>` (see the README), counted by lua/countHit-1.lua. */
export function createRateLimitCounter(
  redis: RedisClient,
  keyspace: Keyspace,
  windowMs: number,
): RateLimitCounter {
  defineScripts(redis, AUTH_SCRIPTS);
  const key = (client: string) => keyspace.rateLimitPrefix() + client;
  const run = async (command: "DECR" | "DEL", client: string) => {
    try {
      await redis.call(command, key(client));
    } catch (cause) {
      throw unavailable(cause);
    }
  };
  return {
    async hit(client) {
      try {
        const [hits, msLeft] = await redis.vuCountHit(key(client), windowMs);
        return { hits, msLeft };
      } catch (cause) {
        throw unavailable(cause);
      }
    },
    undo: (client) => run("DECR", client),
    reset: (client) => run("DEL", client),
  };
}
