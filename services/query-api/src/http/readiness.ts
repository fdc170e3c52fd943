import type { Readiness } from "@vu/service-runtime";
import { type RedisClient, redisHealth, withTimeout } from "@vu/store";
import type { RedisRateLimitStore } from "./redisRateLimitStore";

export interface ReadinessOptions {
  redis: RedisClient;
  rateLimitStore: RedisRateLimitStore;
  timeoutMs?: number;
}

function failure(error: unknown): string {
  const cause = error instanceof Error && error.cause instanceof Error ? error.cause : error;
  return cause instanceof Error ? cause.message : String(error);
}

/**
 * /readyz: ready when the API can serve, not merely when Redis answers PING. Every Redis node
 * answers with a non-evicting policy (redisHealth), and the per-token limiter's script runs (EVALSHA,
 * reloaded after a SCRIPT FLUSH, on the node that owns its probe key), which every authenticated
 * request passes through. Token and rollup reads are plain commands that PING already covers.
 */
export function createReadinessCheck({
  redis,
  rateLimitStore,
  timeoutMs = 1000,
}: ReadinessOptions): () => Promise<Readiness> {
  return async () => {
    const probe = withTimeout(rateLimitStore.probe(), timeoutMs, "the rate limiter's script")
      .then(() => [])
      .catch((error: unknown) => [`the rate limiter's script did not run: ${failure(error)}`]);
    const [health, probeReasons] = await Promise.all([redisHealth(redis, { timeoutMs }), probe]);
    const reasons = [...health.reasons, ...probeReasons];
    return { ok: reasons.length === 0, reasons };
  };
}
