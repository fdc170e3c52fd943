import type { Keyspace } from "./keyspace";
import type { RedisClient } from "./redisClient";

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
  const raw = await redis.get(keyspace.generation());
  return raw === null ? 1 : Number(raw);
}
