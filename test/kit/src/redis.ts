import type { RedisTarget } from "@vu/infra";
import { createRedisClient, type RedisClient } from "@vu/store";
import { afterAll, beforeAll, onTestFinished } from "vitest";

/**
 * A client of a Redis that is not there (port 1): every command fails at once, no retries, no
 * queueing. For tests of what happens while Redis is away.
 */
export function unreachableRedis(): RedisClient {
  const dead = createRedisClient("redis://127.0.0.1:1", {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
    lazyConnect: true,
  });
  // The failures reach the test through its commands; the client's own error events are noise.
  dead.on("error", () => undefined);
  return dead;
}

/**
 * Starts one of `redisTargets()` for the enclosing `describe` (before its tests, stopped after),
 * for `describe.each(redisTargets())`: hands its client to `onStart` and returns the way to it.
 */
export function useRedisTarget(
  target: RedisTarget,
  onStart: (client: RedisClient) => void = () => {},
): () => RedisClient {
  let redis: RedisClient | undefined;
  let stop: () => Promise<void> = async () => {};
  beforeAll(async () => {
    const started = await target.start();
    stop = started.stop;
    redis = createRedisClient(started.url);
    onStart(redis);
  });
  afterAll(async () => {
    await redis?.quit();
    await stop();
  });
  return () => {
    if (redis === undefined) throw new Error(`${target.name} has not started yet`);
    return redis;
  };
}

/**
 * Starts one of `redisTargets()` for the running test alone, with a client, both stopped when the
 * test finishes: for tests that restart, empty or slow their Redis. `url` is for the processes
 * the test starts.
 */
export async function redisForTest(
  target: Pick<RedisTarget, "start">,
): Promise<{ redis: RedisClient; url: string }> {
  const started = await target.start();
  onTestFinished(() => started.stop());
  const redis = createRedisClient(started.url);
  onTestFinished(async () => {
    await redis.quit();
  });
  return { redis, url: started.url };
}
