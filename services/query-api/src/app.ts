import { randomUUID } from "node:crypto";
import { asyncApiDocument, recordingCompletedJsonSchema } from "@vu/events";
import { type Logger, registerRedisMetrics } from "@vu/service-runtime";
import {
  createRateLimitCounter,
  type Keyspace,
  type RedisClient,
  type RollupReader,
  redisHealth,
  type TokenStore,
} from "@vu/store";
import type { Retention } from "@vu/time-buckets";
import express, { type Express, Router } from "express";
import { pinoHttp } from "pino-http";
import { createTokenAuthenticator } from "./auth/tokenAuthenticator";
import { createResultCache } from "./cache/resultCache";
import { API_ENV_DEFAULTS } from "./env";
import { authenticate } from "./http/authenticate";
import { createDashboardRouter } from "./http/dashboardStatic";
import { createErrorHandler, notFound } from "./http/errorHandler";
import { createHttpMetrics, type HttpMetrics } from "./http/httpMetrics";
import { createLargeReadForwarding } from "./http/largeReadForwarding";
import { parseQueryString } from "./http/queryString";
import { createRateLimit, RATE_LIMIT_WINDOW_MS } from "./http/rateLimit";
import { createRedisRateLimitStore } from "./http/redisRateLimitStore";
import { requestLogSerializers } from "./http/requestLogSerializers";
import { compressWholeAnswers } from "./http/responseCompression";
import { serverSpanPrivacy } from "./http/serverSpanPrivacy";
import { readStampAtStart } from "./http/stampAtStart";
import type { TrustProxy } from "./http/trustProxy";
import { createUnauthenticatedLimit } from "./http/unauthenticatedLimit";
import { registerViewMetrics } from "./http/viewMetrics";
import { createOpenApiDocument } from "./openapi/openApiDocument";
import { createCoverCache, createCutCache } from "./planner";
import { createComputationBounds } from "./query/computationBounds";
import { createLargeReads, LARGE_READS_ELSEWHERE, type LargeReadsOptions } from "./query/largeReads";
import { createOrganizationGate, type OrganizationGateOptions } from "./query/organizationGate";
import { API_ROUTES } from "./routes";

export interface ApiConfig {
  retention: Retention;
  rateLimitPerMinute: number;
  /** Requests refused with 401 per client address and minute (in memory, per replica). Default: the env default. */
  unauthenticatedPerMinute?: number;
  /** Express `trust proxy`: which `X-Forwarded-For` hops name the client address. Default: the env default. */
  trustProxy?: TrustProxy;
  tokenCacheMs: number;
  /** Stored blocks one request may read (MAX_BLOCKS_PER_REQUEST). Default: the env default. */
  maxBlocksPerRequest?: number;
  /** Rows of answers kept for repeated queries (RESULT_CACHE_ROWS). Default: the env default. */
  resultCacheRows?: number;
  /** Rows of large answers kept apart (RESULT_CACHE_LARGE_ROWS). Default: the env default. */
  resultCacheLargeRows?: number;
  /** One organization's questions computed at once, waiting, and how long (ORG_QUERY_*). Default: the env defaults. */
  organizationGate?: OrganizationGateOptions;
  /** Large reads computed at once in this process, whatever the organization (largeReads.ts). */
  largeReads?: LargeReadsOptions;
  /**
   * The process's part among several (apiProcesses.ts): `forwards` hands every request that would
   * make a large read to the large-read process on this Unix socket; `largeReads` is that process,
   * whose requests were authenticated, counted and timed by the process that forwarded them.
   * Missing: one process that answers everything itself.
   */
  role?: { kind: "forwards"; socketPath: string } | { kind: "largeReads" };
  /** The dashboard's built files, served at /dashboard/ (DASHBOARD_DIR). Default: the env default. */
  dashboardDir?: string;
}

export interface ApiDeps {
  redis: RedisClient;
  keyspace: Keyspace;
  reader: RollupReader;
  tokens: TokenStore;
  logger: Logger;
  config: ApiConfig;
  metrics?: HttpMetrics;
  now?: () => number;
}

const REQUEST_ID = /^[\w.-]{1,128}$/;

/**
 * Builds the Express app from its dependencies; never listens or connects (runApi.ts does). The
 * public port's: `/healthz`, `/readyz` and `/metrics` are the ops server's (opsServer.ts), on
 * OPS_PORT; here they are 404 like any unknown path.
 */
export function createApp(deps: ApiDeps): Express {
  const { redis, keyspace, reader, tokens, logger, config } = deps;
  const now = deps.now ?? Date.now;
  const metrics = deps.metrics ?? createHttpMetrics();
  registerRedisMetrics(metrics.registry, () => redisHealth(redis));
  registerViewMetrics(metrics.registry, reader);
  const openApi = createOpenApiDocument();
  const asyncApi = asyncApiDocument();
  const eventSchema = recordingCompletedJsonSchema();
  const rateLimitStore = createRedisRateLimitStore(
    createRateLimitCounter(redis, keyspace, RATE_LIMIT_WINDOW_MS),
  );
  const app = express();
  app.disable("x-powered-by");
  app.set("query parser", parseQueryString);
  app.set("trust proxy", config.trustProxy ?? API_ENV_DEFAULTS.TRUST_PROXY);
  app.set("etag", false);

  app.use(serverSpanPrivacy);
  app.use(
    pinoHttp({
      logger,
      // The path and the parameters' names, never their values, headers or the client address.
      serializers: requestLogSerializers,
      genReqId: (req, res) => {
        const given = req.headers["x-request-id"];
        const id = typeof given === "string" && REQUEST_ID.test(given) ? given : randomUUID();
        res.setHeader("X-Request-Id", id);
        return id;
      },
    }),
  );
  const forwarded = config.role?.kind === "largeReads";
  if (!forwarded) app.use(metrics.middleware);
  app.use(compressWholeAnswers);

  app.get("/api/v1/openapi.json", (_req, res) => {
    res.json(openApi);
  });
  // The producers' side, beside the consumers': the topics and the event, from the validator's schema.
  app.get("/api/v1/asyncapi.json", (_req, res) => {
    res.json(asyncApi);
  });
  app.get("/api/v1/recording-completed.schema.json", (_req, res) => {
    res.type("application/schema+json").send(JSON.stringify(eventSchema));
  });
  // A client like any other: the page calls the three public operations with the user's token.
  app.use(createDashboardRouter(config.dashboardDir ?? API_ENV_DEFAULTS.DASHBOARD_DIR));

  const authenticator = createTokenAuthenticator({
    tokens,
    cacheMs: config.tokenCacheMs,
    onTouchError: (error) => logger.warn({ err: error }, "could not record token use"),
  });
  const unauthenticated = createUnauthenticatedLimit({
    perMinute: config.unauthenticatedPerMinute ?? API_ENV_DEFAULTS.UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE,
  });
  // Authentication (with its per-address limit on refusals), then the per-token limit, guard the
  // three operations (all under /stats); the write stamp's read goes to Redis with the limit's count.
  app.use(
    "/api/v1/stats",
    authenticate(authenticator, unauthenticated, async () => reader.confirm(await reader.view())),
    readStampAtStart(reader),
    ...(forwarded ? [] : [createRateLimit({ store: rateLimitStore, perMinute: config.rateLimitPerMinute })]),
  );
  const api = Router();
  const covers = createCoverCache(config.retention);
  const cuts = createCutCache(config.retention);
  const routeDeps = {
    reader,
    planContext: () => ({ now: now(), retention: config.retention, covers, cuts }),
    maxBlocksPerRequest: config.maxBlocksPerRequest ?? API_ENV_DEFAULTS.MAX_BLOCKS_PER_REQUEST,
    results: createResultCache({
      reader,
      maxRows: config.resultCacheRows ?? API_ENV_DEFAULTS.RESULT_CACHE_ROWS,
      maxLargeRows: config.resultCacheLargeRows ?? API_ENV_DEFAULTS.RESULT_CACHE_LARGE_ROWS,
      onLookup: (outcome) => metrics.cacheLookups.inc({ outcome }),
    }),
    bounds: createComputationBounds(
      createOrganizationGate(
        config.organizationGate ?? {
          concurrent: API_ENV_DEFAULTS.ORG_QUERY_CONCURRENCY,
          queued: API_ENV_DEFAULTS.ORG_QUERY_QUEUE,
          waitMs: API_ENV_DEFAULTS.ORG_QUERY_WAIT_MS,
        },
      ),
      config.role?.kind === "forwards"
        ? LARGE_READS_ELSEWHERE
        : createLargeReads(
            config.largeReads ?? {
              concurrent: API_ENV_DEFAULTS.LARGE_READ_CONCURRENCY,
              queued: API_ENV_DEFAULTS.LARGE_READ_QUEUE,
              waitMs: API_ENV_DEFAULTS.LARGE_READ_WAIT_MS,
            },
          ),
    ),
  };
  for (const register of API_ROUTES) register(api, routeDeps);
  app.use(api);

  app.use(notFound);
  if (config.role?.kind === "forwards") app.use(createLargeReadForwarding(config.role.socketPath, logger));
  app.use(createErrorHandler(logger));
  return app;
}
