import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import type { RecordingCompleted } from "@vu/events";
import { createLogger } from "@vu/service-runtime";
import {
  type CountableRecording,
  createKeyspace,
  createRedisClient,
  createRollupReader,
  createRollupWriter,
  createTokenStore,
  type RedisClient,
} from "@vu/store";
import { DAY_MS, DEFAULT_RETENTION } from "@vu/time-buckets";
import { createApp } from "../app";
import type { TrustProxy } from "../http/trustProxy";

export interface HarnessOptions {
  now: number;
  rateLimitPerMinute?: number;
  /** Default: high enough that tests about other things never meet it. */
  unauthenticatedPerMinute?: number;
  trustProxy?: TrustProxy;
  /** Default 100 ms, so tests of revocation stay quick. */
  tokenCacheMs?: number;
  /** Default: REDIS_URL of the test stack; a private redis-server for tests that flush or reconfigure it. */
  redisUrl?: string;
  /** A client for a Redis that is not there, to test 503s. */
  redis?: RedisClient;
  maxBlocksPerRequest?: number;
}

/** A recording with sensible defaults; tests override what they care about. */
export function recording(
  id: string,
  recordedAt: string,
  patch: Partial<RecordingCompleted> = {},
): CountableRecording {
  const event: RecordingCompleted = {
    schema_version: 1,
    recording_id: id,
    organization_id: "acme",
    member_email: "ada@example.com",
    voice_model: "whisper",
    language_model: "gpt",
    app_name: "Zoom",
    recorded_at: recordedAt,
    duration_ms: 60_000,
    word_count: 150,
    voice_processing_ms: 1_000,
    llm_processing_ms: 2_000,
    ...patch,
  };
  return { event, recordedAtMs: Date.parse(recordedAt) };
}

/**
 * The API on a random port over real Redis, under a unique key prefix: rollups are written with
 * the store's writer (the ingest worker's code path), tokens with the token store.
 */
export async function startApi(options: HarnessOptions) {
  const redisUrl = options.redisUrl ?? process.env.REDIS_URL ?? "redis://127.0.0.1:6379";
  const storeRedis = createRedisClient(redisUrl);
  // Tests that stop their Redis expect connection errors; they reach the test through its requests.
  storeRedis.on("error", () => undefined);
  const redis = options.redis ?? storeRedis;
  const keyspace = createKeyspace({ prefix: `test-${randomUUID()}` });
  const now = () => options.now;
  const writer = createRollupWriter({ redis: storeRedis, keyspace, dedupeWindowMs: 7 * DAY_MS, now });
  const tokens = createTokenStore({ redis: storeRedis, keyspace });
  // Counts what the API asks the store for, so tests can assert what a request costs.
  const reads = { blocks: 0, requests: 0 };
  const reader = createRollupReader({ redis, keyspace });
  const countingReader: typeof reader = {
    ...reader,
    readBlocks(generation, org, blocks, view, readOptions) {
      reads.blocks += blocks.length;
      reads.requests++;
      return reader.readBlocks(generation, org, blocks, view, readOptions);
    },
  };
  const app = createApp({
    redis,
    keyspace,
    reader: countingReader,
    tokens: createTokenStore({ redis, keyspace }),
    logger: createLogger("test", "silent"),
    config: {
      retention: DEFAULT_RETENTION,
      rateLimitPerMinute: options.rateLimitPerMinute ?? 10_000,
      unauthenticatedPerMinute: options.unauthenticatedPerMinute ?? 10_000,
      trustProxy: options.trustProxy ?? false,
      tokenCacheMs: options.tokenCacheMs ?? 100,
      ...(options.maxBlocksPerRequest === undefined
        ? {}
        : { maxBlocksPerRequest: options.maxBlocksPerRequest }),
    },
    now,
  });
  const server = app.listen(0);
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    baseUrl,
    keyspace,
    tokens,
    /** Blocks and block reads asked of the store so far. */
    reads,
    /** The client the store's writer uses, for tests that set up odd states by hand. */
    redis: storeRedis,
    async tokenFor(org: string): Promise<string> {
      return (await tokens.create(org, "test")).token;
    },
    async write(org: string, recordings: CountableRecording[]): Promise<void> {
      await writer.apply(1, org, recordings);
    },
    get(path: string, token?: string, headers: Record<string, string> = {}): Promise<Response> {
      const auth: Record<string, string> = token ? { authorization: `Bearer ${token}` } : {};
      return fetch(`${baseUrl}${path}`, { headers: { ...auth, ...headers } });
    },
    async close(): Promise<void> {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await storeRedis.quit();
      if (options.redis) options.redis.disconnect();
    },
  };
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

export type ApiHarness = Awaited<ReturnType<typeof startApi>>;
