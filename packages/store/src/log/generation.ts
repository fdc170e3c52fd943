import type { Keyspace } from "../format/keyspace";
import type { RedisClient } from "../redis/redisClient";
import { isTransientRedisError } from "../redis/redisErrors";
import { StoreError } from "../storeError";

/** Points readers and writers at another keyspace generation (one SET: atomic for every reader). */
export async function switchGeneration(
  redis: RedisClient,
  keyspace: Keyspace,
  generation: number,
): Promise<void> {
  await redis.set(keyspace.generation(), String(generation));
}

/** The generation currently served (1 until a rebuild switches it). */
export async function currentGeneration(redis: RedisClient, keyspace: Keyspace): Promise<number> {
  let raw: string | null;
  try {
    raw = await redis.get(keyspace.generation());
  } catch (cause) {
    throw new StoreError("reading the keyspace generation failed", {
      retriable: isTransientRedisError(cause),
      cause,
    });
  }
  return raw === null ? 1 : Number(raw);
}

/** The generation a writer or reader uses, known without a round trip while its cache is fresh. */
export interface GenerationSource {
  current(): Promise<number>;
}

export interface GenerationSourceOptions {
  redis: RedisClient;
  keyspace: Keyspace;
  /** Always this generation (the `rebuild` command writes into the next one). */
  fixed?: number;
  /** How long a read generation is trusted: a switch reaches this process within this time. */
  cacheMs?: number;
  now?: () => number;
}

export function createGenerationSource(options: GenerationSourceOptions): GenerationSource {
  const { redis, keyspace, fixed, cacheMs = 1_000 } = options;
  const now = options.now ?? Date.now;
  let cached = { value: 1, until: 0 };
  const cachedOrFixed = () => fixed ?? (cached.until > now() ? cached.value : undefined);
  return {
    async current() {
      const known = cachedOrFixed();
      if (known !== undefined) return known;
      cached = { value: await currentGeneration(redis, keyspace), until: now() + cacheMs };
      return cached.value;
    },
  };
}
