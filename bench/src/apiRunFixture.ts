import type { ApiRun } from "./queryBench";

/** Tests of the report's rows: a closed-loop run with these percentiles (p99 twice p50 unless given). */
export const apiRun = (p50: number, p99 = p50 * 2): ApiRun => ({
  samples: 100,
  p50,
  p90: p99,
  p99,
  mean: p50,
  max: p99,
  requestsPerSecond: 1000,
  non2xx: 0,
});

/** Tests of the report's rows: what one request cost the API and Redis. */
export const REQUEST_COST = { apiCpuMs: 0.2, redisCpuMs: 0.1, redisCalls: 2, hgetallMs: 0, redisBytes: 100 };
