import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import {
  checkRetention,
  envInt,
  envLogLevel,
  parseEnv,
  redisEnvShape,
  retentionEnvShape,
} from "@vu/service-runtime";
import { DEFAULT_LARGE_READ_FIELDS, DEFAULT_SLICE_FIELDS } from "@vu/store";
import { z } from "zod";
import { trustProxyEnv } from "./http/trustProxy";

export const apiEnvSchema = z
  .object({
    PORT: envInt(8080, { max: 65_535 }),
    /**
     * /healthz, /readyz and /metrics: on this port only, never on PORT (they are for the orchestrator
     * and Prometheus, not for clients). Not the worker's default, so both run on one host.
     */
    OPS_PORT: envInt(9465, { max: 65_535 }),
    /** API processes sharing PORT (apiProcesses.ts); by default one per core the machine gives Node. */
    API_PROCESSES: envInt(availableParallelism(), { min: 1, max: 64 }),
    ...redisEnvShape,
    RATE_LIMIT_PER_MINUTE: envInt(600, { min: 1 }),
    /** Requests refused with 401 one client address may make a minute before it gets 429 (in memory). */
    UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: envInt(60, { min: 1 }),
    TRUST_PROXY: trustProxyEnv,
    /**
     * Stored blocks one request may read; more is a 400 naming the range. The default answers every
     * query of at most 10,000 buckets within the retention (env.test.ts checks it with the planner):
     * the worst is hourly buckets in a :30 or :45 zone, 60 minute blocks per hour for 35 days.
     */
    MAX_BLOCKS_PER_REQUEST: envInt(60_000, { min: 1_000 }),
    /**
     * Rows of answers kept for repeated queries (the result cache: exact, checked against the
     * organization's write stamp on every use); about 150 bytes each. 0 keeps none.
     */
    RESULT_CACHE_ROWS: envInt(200_000, { min: 0 }),
    /**
     * Rows of answers larger than a quarter of RESULT_CACHE_ROWS, kept apart from the others, so
     * that paging through a large answer computes it once; 0 keeps none (every page computes it).
     */
    RESULT_CACHE_LARGE_ROWS: envInt(500_000, { min: 0 }),
    /**
     * Questions of one organization computed at once (not answered from kept answers); more wait,
     * up to ORG_QUERY_QUEUE of them for ORG_QUERY_WAIT_MS, and the rest get 429 with Retry-After.
     */
    ORG_QUERY_CONCURRENCY: envInt(4, { min: 1 }),
    ORG_QUERY_QUEUE: envInt(16, { min: 0 }),
    ORG_QUERY_WAIT_MS: envInt(2_000, { min: 0, max: 60_000 }),
    /**
     * Reads larger than LARGE_READ_FIELDS computed at once in one API process, whatever the
     * organization; more wait, up to LARGE_READ_QUEUE of them for LARGE_READ_WAIT_MS, and the rest
     * get 503 with Retry-After (services/query-api/src/query/largeReads.ts).
     */
    LARGE_READ_CONCURRENCY: envInt(1, { min: 1 }),
    LARGE_READ_QUEUE: envInt(8, { min: 0 }),
    LARGE_READ_WAIT_MS: envInt(5_000, { min: 0, max: 60_000 }),
    /**
     * Fields one Redis MULTI of a query may read; a larger read goes in slices checked against the
     * organization's write stamp (packages/store/src/read/slicedRead.ts), so no request holds Redis long.
     */
    READ_SLICE_FIELDS: envInt(DEFAULT_SLICE_FIELDS, { min: 100 }),
    /**
     * Fields past which a read is large: it passes the LARGE_READ_* lane, in the large-read process
     * when there are several API processes, else in this one.
     */
    LARGE_READ_FIELDS: envInt(DEFAULT_LARGE_READ_FIELDS, { min: 100 }),
    /** Token lookups are cached this long: a revoked token is refused within it (≤ 5 s). */
    TOKEN_CACHE_MS: envInt(2_000, { max: 5_000 }),
    LOG_LEVEL: envLogLevel,
    /** The dashboard's built files (services/dashboard's `vite build`), served at /dashboard/. */
    DASHBOARD_DIR: z
      .string()
      .min(1)
      .default(fileURLToPath(new URL("../../dashboard/dist/", import.meta.url))),
    ...retentionEnvShape,
  })
  .superRefine((env, ctx) => {
    checkRetention(env, ctx);
    // One port for both would put the ops endpoints back on the public one (0: each its own, at random).
    if (env.OPS_PORT === env.PORT && env.PORT !== 0) {
      ctx.addIssue({ code: "custom", path: ["OPS_PORT"], message: `must differ from PORT (${env.PORT})` });
    }
  });

export type ApiEnv = z.output<typeof apiEnvSchema>;

/** Every variable at its default: what createApp uses for a setting its caller leaves out. */
export const API_ENV_DEFAULTS: Readonly<ApiEnv> = apiEnvSchema.parse({});

export function loadApiEnv(env: Record<string, string | undefined> = process.env): Readonly<ApiEnv> {
  return parseEnv(apiEnvSchema, env);
}
