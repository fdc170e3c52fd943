import cluster from "node:cluster";
import { rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { setPriority } from "node:os";
import {
  createLogger,
  type Logger,
  listenOrExit,
  onShutdown,
  retentionFromEnv,
  type Tracing,
  warnWhenRedisUnfit,
} from "@vu/service-runtime";
import {
  createKeyspace,
  createRedisClient,
  createRollupReader,
  createTokenStore,
  redisHealth,
} from "@vu/store";
import {
  LARGE_READ_NICE,
  metricsOfAllProcesses,
  PROCESS_SERVING,
  type ProcessRole,
  processRole,
  runPrimary,
} from "./apiProcesses";
import { createApp } from "./app";
import { type ApiEnv, loadApiEnv } from "./env";
import { createHttpMetrics } from "./http/httpMetrics";
import { createApiOpsServer } from "./opsServer";
import { API_REDIS_OPTIONS } from "./redisOptions";

/** The API (main.ts runs it once tracing has started): the primary of several processes, or one that serves. */
export async function runApi(tracing: Tracing): Promise<void> {
  const env = loadApiEnv();
  const logger = createLogger("query-api", env.LOG_LEVEL);
  if (env.API_PROCESSES > 1 && cluster.isPrimary) runPrimary({ processes: env.API_PROCESSES, logger });
  else await serve({ env, logger, tracing }, cluster.isWorker ? processRole() : undefined);
}

interface ProcessDeps {
  env: ApiEnv;
  logger: Logger;
  tracing: Tracing;
}

/** One API process (alone, or in the role the primary gave it): its Redis client, the app, the server and their shutdown. */
async function serve({ env, logger, tracing }: ProcessDeps, role: ProcessRole | undefined): Promise<void> {
  const inCluster = cluster.isWorker;
  const redis = createRedisClient(env.REDIS_URL, { ...API_REDIS_OPTIONS });
  redis.on("error", (error: Error) => logger.warn({ err: error }, "redis connection error"));
  warnWhenRedisUnfit(redis, {
    check: () => redisHealth(redis),
    logger,
    message: "redis is not fit to serve; /readyz reports unavailable",
  });
  const keyspace = createKeyspace({ prefix: env.REDIS_PREFIX });
  const metrics = createHttpMetrics();
  if (inCluster) metrics.text = metricsOfAllProcesses(metrics.registry);
  const reader = createRollupReader({
    redis,
    keyspace,
    sliceFields: env.READ_SLICE_FIELDS,
    largeReadFields: env.LARGE_READ_FIELDS,
  });
  const app = createApp({
    metrics,
    redis,
    keyspace,
    reader,
    tokens: createTokenStore({ redis, keyspace }),
    logger,
    config: {
      retention: retentionFromEnv(env),
      rateLimitPerMinute: env.RATE_LIMIT_PER_MINUTE,
      unauthenticatedPerMinute: env.UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE,
      trustProxy: env.TRUST_PROXY,
      tokenCacheMs: env.TOKEN_CACHE_MS,
      maxBlocksPerRequest: env.MAX_BLOCKS_PER_REQUEST,
      resultCacheRows: env.RESULT_CACHE_ROWS,
      resultCacheLargeRows: env.RESULT_CACHE_LARGE_ROWS,
      organizationGate: {
        concurrent: env.ORG_QUERY_CONCURRENCY,
        queued: env.ORG_QUERY_QUEUE,
        waitMs: env.ORG_QUERY_WAIT_MS,
      },
      largeReads: {
        concurrent: env.LARGE_READ_CONCURRENCY,
        queued: env.LARGE_READ_QUEUE,
        waitMs: env.LARGE_READ_WAIT_MS,
      },
      dashboardDir: env.DASHBOARD_DIR,
      ...(role === undefined
        ? {}
        : {
            role:
              role.kind === "forwards"
                ? { kind: "forwards", socketPath: role.socketPath }
                : { kind: "largeReads" },
          }),
    },
  });

  const server = createServer(app);
  const servers = [server];
  // The large-read process answers only what is handed to it: no port, no ops endpoints.
  if (role?.kind === "largeReads") await listenForLargeReads(server, role.socketPath, logger);
  else {
    const ops = createApiOpsServer({ redis, keyspace, reader, metrics, logger });
    servers.push(ops);
    const listenOptions = { logger, beforeExit: () => redis.disconnect() };
    await listenOrExit(server, env.PORT, listenOptions);
    await listenOrExit(ops, env.OPS_PORT, listenOptions);
    logger.info({ port: env.PORT, opsPort: env.OPS_PORT }, "query API listening");
  }
  process.send?.({ type: PROCESS_SERVING });

  onShutdown(
    [
      ...servers.map((s) => () => closed(s)),
      async () => {
        await redis.quit();
      },
      () => tracing.shutdown(),
    ],
    { logger },
  );
}

function closed(server: Server): Promise<void> {
  return new Promise((resolve, reject) => server.close((error) => (error ? reject(error) : resolve())));
}

/**
 * The large-read process: at a lower priority (the others' questions first when the cores are
 * busy), on the primary's private socket rather than the port (`exclusive`: this process binds it,
 * not the primary). A predecessor's socket file is removed first.
 */
async function listenForLargeReads(server: Server, socketPath: string, logger: Logger): Promise<void> {
  try {
    setPriority(LARGE_READ_NICE);
  } catch (error) {
    logger.warn({ err: error }, "could not lower the large-read process' priority; it runs at the others'");
  }
  rmSync(socketPath, { force: true });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen({ path: socketPath, exclusive: true }, () => {
      server.off("error", reject);
      resolve();
    });
  });
  logger.info({ socketPath, nice: LARGE_READ_NICE }, "large-read process listening");
}
