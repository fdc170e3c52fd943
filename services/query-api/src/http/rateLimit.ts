import { type RedisClient, StoreError } from "@vu/store";
import type { Request, RequestHandler } from "express";
import { type RateLimitInfo, rateLimit } from "express-rate-limit";
import { type RedisReply, RedisStore } from "rate-limit-redis";
import { authOf } from "./authenticate";
import { ProblemError } from "./problemError";

export interface RateLimitOptions {
  redis: RedisClient;
  /** Key prefix from the keyspace (the store package owns every key name). */
  prefix: string;
  perMinute: number;
}

/**
 * Per-token limit, counted in Redis so all API replicas share it (CONTRACT §3: 600 a minute by
 * default), with the IETF `RateLimit` headers and a problem+json 429 with `Retry-After`.
 */
export function createRateLimit({ redis, prefix, perMinute }: RateLimitOptions): RequestHandler {
  const store = new RedisStore({
    prefix,
    sendCommand: async (command: string, ...args: string[]) => {
      try {
        return (await redis.call(command, ...args)) as RedisReply;
      } catch (cause) {
        throw new StoreError("rate limit store unavailable", { retriable: true, cause });
      }
    },
  });
  return rateLimit({
    windowMs: 60_000,
    limit: perMinute,
    standardHeaders: "draft-8",
    legacyHeaders: false,
    store,
    keyGenerator: (_req, res) => authOf(res.locals).tokenId,
    handler: (req, _res, next) => {
      const resetTime = (req as Request & { rateLimit?: RateLimitInfo }).rateLimit?.resetTime;
      const retryAfter = resetTime ? Math.max(1, Math.ceil((resetTime.getTime() - Date.now()) / 1000)) : 60;
      next(
        new ProblemError(429, `Rate limit of ${perMinute} requests a minute exceeded.`, {
          headers: { "Retry-After": String(retryAfter) },
        }),
      );
    },
  });
}
