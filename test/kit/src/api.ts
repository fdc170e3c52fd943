import type { AddressInfo } from "node:net";
import { type ApiConfig, createApiOpsServer, createApp, createHttpMetrics } from "@vu/query-api";
import { createLogger, listen } from "@vu/service-runtime";
import {
  type CountableRecording,
  createKeyspace,
  createLogPosition,
  createRedisClient,
  createRollupReader,
  createRollupWriter,
  createTokenStore,
  type Keyspace,
  type RedisClient,
} from "@vu/store";
import { DAY_MS, DEFAULT_RETENTION } from "@vu/time-buckets";
import { uniquePrefix } from "./names";
import { redisUrl } from "./stackEnv";

/** The partition `setDataAsOf` moves: the test server's store counts as one topic of one partition. */
const AS_OF_PARTITION = "recordings:0";

export interface ApiServerOptions {
  /** The API's clock, fixed so that expectations (and an oracle) agree on "now". */
  nowMs: number;
  /** A clock that moves, for tests of what "now" changes (a range ending now); default: `nowMs`. */
  clock?: () => number;
  /** The key prefix to read (and write) under. Default: one of this server's own. */
  prefix?: string;
  /** Default: the test stack's Redis. */
  redisUrl?: string;
  /** The client the API reads with, e.g. one for a Redis that is not there (503s). */
  redis?: RedisClient;
  /** Organizations that get a token at start (`tokenFor`). */
  orgs?: readonly string[];
  /** Tokens of another replica to use instead of creating new ones (replicas share limits per token). */
  tokens?: ReadonlyMap<string, string>;
  /** Default: a limit no test reaches; the limiters are not what most tests are about. */
  rateLimitPerMinute?: number;
  unauthenticatedPerMinute?: number;
  trustProxy?: ApiConfig["trustProxy"];
  /** Default 100 ms, so tests of revocation stay quick. */
  tokenCacheMs?: number;
  maxBlocksPerRequest?: number;
  /** Rows of answers the API keeps for repeated queries; default the API's own. */
  resultCacheRows?: number;
  /** One organization's questions computed at once, waiting, and how long; default the API's own. */
  organizationGate?: ApiConfig["organizationGate"];
  /** Runs before each read of blocks, with its organization: tests hold a read in flight with it. */
  beforeRead?: (org: string) => Promise<void>;
  /** Fields one MULTI reads (the reader's `sliceFields`); default the store's own. */
  readSliceFields?: number;
  /** Fields past which a read is large (the reader's `largeReadFields`); default `readSliceFields`. */
  largeReadFields?: number;
  /** Large reads computed at once, waiting, and how long; default the API's own. */
  largeReads?: ApiConfig["largeReads"];
  /** Runs once a large read was let through (largeReads.ts), before it reads: holds it in flight. */
  afterLargeReadAdmitted?: (org: string, fields: number) => Promise<void>;
  /** The process' part among several (ApiConfig `role`); default: one that answers everything. */
  role?: ApiConfig["role"];
  /** Listen on this Unix socket instead of a port (the large-read process); `baseUrl` is then "". */
  socketPath?: string;
  /**
   * Open a live epoch for the prefix unless one exists (default true): data written by `write`
   * bypasses the worker, which opens it in production. False for tests of a store without one.
   */
  openEpoch?: boolean;
}

/**
 * A read a test holds in flight from one of the server's hooks: `hold` (awaited in the hook)
 * resolves `entered` with what the hook saw, then waits until the test calls `release`.
 */
export function heldInFlight<T = void>() {
  let release: () => void = () => undefined;
  let enter: (value: T) => void = () => undefined;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const entered = new Promise<T>((resolve) => {
    enter = resolve;
  });
  return {
    entered,
    release: () => release(),
    async hold(value: T): Promise<void> {
      enter(value);
      await released;
    },
  };
}

/**
 * The query API in-process on a random port over real Redis. Rollups are written with the store's
 * writer (the worker's code path) and tokens with the token store, under the server's prefix.
 */
export async function startApiServer(options: ApiServerOptions) {
  const storeRedis = createRedisClient(options.redisUrl ?? redisUrl());
  // Tests that stop their Redis expect connection errors; they reach the test through its requests.
  storeRedis.on("error", () => undefined);
  const redis = options.redis ?? storeRedis;
  const keyspace = createKeyspace({ prefix: options.prefix ?? uniquePrefix("api") });
  const now = options.clock ?? (() => options.nowMs);
  // Percentile sketches kept, as the kit's workers keep them (docs/contract.md §9).
  const writer = createRollupWriter({
    redis: storeRedis,
    keyspace,
    dedupeWindowMs: 7 * DAY_MS,
    now,
    sketches: true,
  });
  if (options.openEpoch ?? true) await openLiveEpoch(storeRedis, keyspace);
  const tokens = createTokenStore({ redis: storeRedis, keyspace });
  // Counts what the API asks the store for, so tests can assert what a request costs.
  const reads = { blocks: 0, requests: 0 };
  const largeReadFields = options.largeReadFields ?? options.readSliceFields;
  const reader = createRollupReader({
    redis,
    keyspace,
    ...(options.readSliceFields === undefined ? {} : { sliceFields: options.readSliceFields }),
    ...(largeReadFields === undefined ? {} : { largeReadFields }),
  });
  const countingReader: typeof reader = {
    ...reader,
    async readBlocks(generation, org, blocks, projection, readOptions = {}) {
      reads.blocks += blocks.length;
      reads.requests++;
      await options.beforeRead?.(org);
      const admitted = options.afterLargeReadAdmitted;
      const admit = readOptions.beforeLargeRead;
      const held =
        admitted && admit
          ? {
              ...readOptions,
              beforeLargeRead: async (fields: number) => {
                await admit(fields);
                await admitted(org, fields);
              },
            }
          : readOptions;
      return reader.readBlocks(generation, org, blocks, projection, held);
    },
  };
  const metrics = createHttpMetrics();
  const logger = createLogger("test-api", "silent");
  const app = createApp({
    redis,
    keyspace,
    metrics,
    reader: countingReader,
    tokens: createTokenStore({ redis, keyspace }),
    logger,
    config: {
      retention: DEFAULT_RETENTION,
      rateLimitPerMinute: options.rateLimitPerMinute ?? 10_000_000,
      unauthenticatedPerMinute: options.unauthenticatedPerMinute ?? 10_000_000,
      trustProxy: options.trustProxy ?? false,
      tokenCacheMs: options.tokenCacheMs ?? 100,
      ...(options.maxBlocksPerRequest === undefined
        ? {}
        : { maxBlocksPerRequest: options.maxBlocksPerRequest }),
      ...(options.resultCacheRows === undefined ? {} : { resultCacheRows: options.resultCacheRows }),
      ...(options.organizationGate === undefined ? {} : { organizationGate: options.organizationGate }),
      ...(options.largeReads === undefined ? {} : { largeReads: options.largeReads }),
      ...(options.role === undefined ? {} : { role: options.role }),
    },
    now,
  });
  const server =
    options.socketPath === undefined ? app.listen(0, "127.0.0.1") : app.listen(options.socketPath);
  // A test's oracle may hold this event loop for a while; with Node's 5 s default an idle
  // keep-alive socket may be closed just as the client reuses it (ECONNRESET).
  server.keepAliveTimeout = 120_000;
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  const baseUrl =
    options.socketPath === undefined ? `http://127.0.0.1:${(server.address() as AddressInfo).port}` : "";
  // The ops endpoints, on a port of their own as main.ts serves them (OPS_PORT).
  const ops = createApiOpsServer({ redis, keyspace, reader, metrics, logger });
  await listen(ops, 0, "127.0.0.1");
  const opsUrl = `http://127.0.0.1:${(ops.address() as AddressInfo).port}`;
  const byOrg = new Map<string, string>(options.tokens ?? []);
  for (const org of options.orgs ?? []) {
    if (!byOrg.has(org)) byOrg.set(org, (await tokens.create(org, "test")).token);
  }

  return {
    baseUrl,
    /** The ops server's base URL (OPS_PORT in main.ts). */
    opsUrl,
    keyspace,
    /** The token of each organization named in `orgs` (or given in `tokens`). */
    tokens: byOrg as ReadonlyMap<string, string>,
    tokenFor(org: string): string {
      const token = byOrg.get(org);
      if (token === undefined) throw new Error(`no token for organization ${org}`);
      return token;
    },
    /** A new token for `org`. */
    async createToken(org: string): Promise<string> {
      return (await tokens.create(org, "test")).token;
    },
    /** The token store, for tests of revocation. */
    tokenStore: tokens,
    /** Blocks and block reads asked of the store so far. */
    reads,
    /** The client the store's writer uses, for tests that set up odd states by hand. */
    redis: storeRedis,
    async write(org: string, recordings: CountableRecording[]): Promise<void> {
      await writer.apply(1, org, recordings);
    },
    /** As `write`, by a writer that keeps no percentile sketches (the worker's default). */
    async writeWithoutSketches(org: string, recordings: CountableRecording[]): Promise<void> {
      await createRollupWriter({ redis: storeRedis, keyspace, dedupeWindowMs: 7 * DAY_MS, now }).apply(
        1,
        org,
        recordings,
      );
    },
    /**
     * Records `asOfMs` as the as-of of the store's one partition, as the worker does with its
     * checkpoint: the API's `X-Data-As-Of` once its view (cached for a moment) is read again.
     */
    async setDataAsOf(asOfMs: number): Promise<void> {
      const log = createLogPosition({ redis: storeRedis, keyspace });
      const record = await log.read(1);
      if (record.epoch === null) throw new Error("setDataAsOf: the store has no epoch");
      const checkpoint = record.checkpoints.get(AS_OF_PARTITION) ?? null;
      const next = checkpoint ?? "1";
      await log.advance(1, {
        epoch: record.epoch,
        partition: AS_OF_PARTITION,
        expected: checkpoint,
        next,
        asOfMs,
      });
    },
    /** GET on the ops server (`/healthz`, `/readyz`, `/metrics`); the public port answers them 404. */
    ops(path: "/healthz" | "/readyz" | "/metrics"): Promise<Response> {
      return fetch(`${opsUrl}${path}`);
    },
    get(path: string, token?: string, headers: Record<string, string> = {}): Promise<Response> {
      const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
      return fetch(`${baseUrl}${path}`, { headers: { ...auth, ...headers } });
    },
    async close(): Promise<void> {
      for (const open of [server, ops]) {
        open.closeAllConnections();
        await new Promise<void>((resolve) => open.close(() => resolve()));
      }
      await storeRedis.quit();
      if (options.redis) options.redis.disconnect();
    },
  };
}

export type ApiServer = Awaited<ReturnType<typeof startApiServer>>;

/** A live epoch for generation 1 with nothing to replay, unless the store has one already. */
export async function openLiveEpoch(redis: RedisClient, keyspace: Keyspace): Promise<void> {
  await createLogPosition({ redis, keyspace }).open(1, {
    expected: null,
    state: "replaying",
    reason: "opened by a test",
    targets: new Map(),
  });
}

/** The JSON bodies the tests read, typed loosely enough to inspect any field. */
export interface JsonBody {
  [key: string]: unknown;
  // biome-ignore lint/suspicious/noExplicitAny: tests index into arbitrary response JSON
  data: any[];
  // biome-ignore lint/suspicious/noExplicitAny: as above
  errors: any[];
  // biome-ignore lint/suspicious/noExplicitAny: as above
  meta: any;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  pagination: any;
}

export async function bodyOf(res: Response): Promise<JsonBody> {
  return (await res.json()) as JsonBody;
}
