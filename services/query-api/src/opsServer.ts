import type { Server } from "node:http";
import { cachedReadiness, createOpsServer, type Logger } from "@vu/service-runtime";
import { createRateLimitCounter, type Keyspace, type RedisClient, type RollupReader } from "@vu/store";
import type { HttpMetrics } from "./http/httpMetrics";
import { RATE_LIMIT_WINDOW_MS } from "./http/rateLimit";
import { createReadinessCheck } from "./http/readiness";
import { createRedisRateLimitStore } from "./http/redisRateLimitStore";

export interface ApiOpsDeps {
  redis: RedisClient;
  keyspace: Keyspace;
  reader: Pick<RollupReader, "view">;
  /** The API process's metrics (createApp's), and what /metrics answers (every process's, summed). */
  metrics: HttpMetrics;
  logger: Logger;
}

/**
 * The API's `/healthz`, `/readyz` and `/metrics`, for `OPS_PORT`: the public port (createApp)
 * serves none of them. Readiness is checked at most once a second (cachedReadiness), whoever asks.
 * Built, not started: main.ts listens.
 */
export function createApiOpsServer({ redis, keyspace, reader, metrics, logger }: ApiOpsDeps): Server {
  const rateLimitStore = createRedisRateLimitStore(
    createRateLimitCounter(redis, keyspace, RATE_LIMIT_WINDOW_MS),
  );
  const check = cachedReadiness(createReadinessCheck({ redis, rateLimitStore, reader }));
  return createOpsServer({
    registry: metrics.registry,
    metricsText: metrics.text,
    async ready() {
      const verdict = await check();
      if (!verdict.ok) logger.warn({ reasons: verdict.reasons }, "not ready");
      return verdict;
    },
  });
}
