import type { Readiness } from "@vu/service-runtime";
import { type RedisClient, type RollupReader, redisHealth, ViewNotLiveError, withTimeout } from "@vu/store";
import type { RedisRateLimitStore } from "./redisRateLimitStore";

export interface ReadinessOptions {
  redis: RedisClient;
  rateLimitStore: RedisRateLimitStore;
  reader: Pick<RollupReader, "view">;
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
 * request passes through. Token and rollup reads are plain commands that PING already covers. And
 * the view is live: Redis has its epoch and no replay of the topic is under way (else the API
 * answers 503, and readiness says why).
 */
export function createReadinessCheck({
  redis,
  rateLimitStore,
  reader,
  timeoutMs = 1000,
}: ReadinessOptions): () => Promise<Readiness> {
  return async () => {
    const probe = withTimeout(rateLimitStore.probe(), timeoutMs, "the rate limiter's script")
      .then(() => [])
      .catch((error: unknown) => [`the rate limiter's script did not run: ${failure(error)}`]);
    const view = reader
      .view()
      .then(() => [])
      .catch((error: unknown) => (error instanceof ViewNotLiveError ? [error.message] : []));
    const [health, probeReasons, viewReasons] = await Promise.all([
      redisHealth(redis, { timeoutMs }),
      probe,
      view,
    ]);
    const reasons = [...health.reasons, ...probeReasons, ...viewReasons];
    return { ok: reasons.length === 0, reasons };
  };
}
