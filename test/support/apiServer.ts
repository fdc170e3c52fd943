import type { AddressInfo } from "node:net";
import { createApp } from "@vu/query-api";
import { createLogger } from "@vu/service-runtime";
import { createKeyspace, createRedisClient, createRollupReader, createTokenStore } from "@vu/store";
import { DEFAULT_RETENTION } from "@vu/time-buckets";

/** The store's default retention (CONTRACT §2), which the oracle's kept grid assumes too. */
export { DEFAULT_RETENTION };

export interface ApiServerOptions {
  redisUrl: string;
  /** The key prefix the worker wrote under. */
  prefix: string;
  /** The API's clock, fixed so that the oracle and the API agree on "now". */
  nowMs: number;
  /** Organizations that get a token each. */
  orgs: readonly string[];
  /** Tokens of another replica to use instead of creating new ones (replicas share limits per token). */
  tokens?: ReadonlyMap<string, string>;
  /** Default: a limit no test reaches. */
  rateLimitPerMinute?: number;
}

export interface ApiServer {
  baseUrl: string;
  tokenFor(org: string): string;
  tokens: ReadonlyMap<string, string>;
  close(): Promise<void>;
}

/** The query API in-process on port 0 over real Redis, with one bearer token per organization. */
export async function startApiServer(options: ApiServerOptions): Promise<ApiServer> {
  const redis = createRedisClient(options.redisUrl);
  const keyspace = createKeyspace({ prefix: options.prefix });
  const tokens = createTokenStore({ redis, keyspace });
  const app = createApp({
    redis,
    keyspace,
    reader: createRollupReader({ redis, keyspace }),
    tokens,
    logger: createLogger("e2e-api", "silent"),
    // By default a limit no test reaches: the rate limiter is not what most tests are about.
    config: {
      retention: DEFAULT_RETENTION,
      rateLimitPerMinute: options.rateLimitPerMinute ?? 10_000_000,
      unauthenticatedPerMinute: 10_000_000,
      tokenCacheMs: 1_000,
    },
    now: () => options.nowMs,
  });
  const server = app.listen(0, "127.0.0.1");
  // The oracle shares this event loop and can hold it for a while on big queries; with Node's 5 s
  // default an idle keep-alive socket may be closed just as the client reuses it (ECONNRESET).
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  const byOrg = new Map<string, string>(options.tokens ?? []);
  for (const org of options.orgs) {
    if (!byOrg.has(org)) byOrg.set(org, (await tokens.create(org, "e2e")).token);
  }
  return {
    baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    tokens: byOrg,
    tokenFor(org) {
      const token = byOrg.get(org);
      if (token === undefined) throw new Error(`no token for organization ${org}`);
      return token;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await redis.quit();
    },
  };
}
