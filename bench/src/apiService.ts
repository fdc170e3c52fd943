import { join } from "node:path";
import { freePort } from "@vu/infra";
import { createKeyspace, createTokenStore, type RedisClient } from "@vu/store";
import { type ChildService, OUT_DIR, startChild, waitForHttp } from "./childService";

export interface RunningApi {
  api: ChildService;
  baseUrl: string;
  /** The ops port's address (`OPS_PORT`: /healthz, /readyz, /metrics). */
  opsUrl: string;
  /** A bearer token per organization, made with the store the API reads. */
  tokenFor(org: string): Promise<string>;
}

/**
 * The real query API (`services/query-api/src/main.ts`) as a child process on the bench's prefix.
 * The rate limit is lifted far above what the bench sends: the limiter's own Redis call stays in
 * the path, as in production, but never answers 429.
 */
export async function startApi(options: {
  runId: string;
  redis: RedisClient;
  redisUrl: string;
  prefix: string;
  /** `--cpu-prof` into bench/out/prof, written when the API exits. */
  profile: boolean;
  /** API processes (`API_PROCESSES`); default the API's own (one per core). */
  processes?: number;
  /** Told apart from the run's main API in the log file's name. */
  name?: string;
}): Promise<RunningApi> {
  const [port, opsPort] = [await freePort(), await freePort()];
  const api = startChild({
    name: options.name ?? `query-api-${options.runId}`,
    script: "services/query-api/src/main.ts",
    env: {
      PORT: String(port),
      OPS_PORT: String(opsPort),
      REDIS_URL: options.redisUrl,
      REDIS_PREFIX: options.prefix,
      RATE_LIMIT_PER_MINUTE: "1000000000",
      ...(options.processes === undefined ? {} : { API_PROCESSES: String(options.processes) }),
    },
    nodeArgs: options.profile ? ["--cpu-prof", "--cpu-prof-dir", join(OUT_DIR, "prof")] : [],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const opsUrl = `http://127.0.0.1:${opsPort}`;
  await waitForHttp(api, `${opsUrl}/readyz`);
  const tokens = createTokenStore({
    redis: options.redis,
    keyspace: createKeyspace({ prefix: options.prefix }),
  });
  return {
    api,
    baseUrl,
    opsUrl,
    tokenFor: async (org) => (await tokens.create(org, "bench")).token,
  };
}
