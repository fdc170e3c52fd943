import type { Request, RequestHandler } from "express";
import { type RateLimitInfo, rateLimit } from "express-rate-limit";
import { authOf } from "./authenticate";
import { ProblemError } from "./problemError";
import type { RedisRateLimitStore } from "./redisRateLimitStore";

export const RATE_LIMIT_WINDOW_MS = 60_000;

export interface RateLimitOptions {
  store: RedisRateLimitStore;
  perMinute: number;
}

/**
 * Per-token limit, counted in Redis so all API replicas share it (docs/contract.md §3: 600 a minute by
 * default), with the IETF `RateLimit` headers and a problem+json 429 with `Retry-After`. A store
 * failure reaches the error handler (passOnStoreError stays false): 503, fail closed.
 */
export function createRateLimit({ store, perMinute }: RateLimitOptions): RequestHandler {
  return rateLimit({
    windowMs: RATE_LIMIT_WINDOW_MS,
    limit: perMinute,
    standardHeaders: "draft-8",
    legacyHeaders: false,
    store,
    passOnStoreError: false,
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
