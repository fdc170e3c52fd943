import { Redis } from "ioredis";
import { describe, expect, it, onTestFinished } from "vitest";
import { startRedisServer } from "./redisServer";

async function withClient<T>(url: string, fn: (redis: Redis) => Promise<T>): Promise<T> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  try {
    return await fn(redis);
  } finally {
    redis.disconnect();
  }
}

describe("startRedisServer", () => {
  it("keeps acknowledged writes across a restart thanks to the AOF", async () => {
    const server = await startRedisServer({ appendonly: true });
    onTestFinished(() => server.dispose());
    await withClient(server.url, (redis) => redis.set("survivor", "still here"));
    const before = server.pid();

    await server.restart();

    expect(server.pid()).not.toBe(before);
    expect(await withClient(server.url, (redis) => redis.get("survivor"))).toBe("still here");
  });

  it("can be crashed and started again on the same port", async () => {
    const server = await startRedisServer({ appendfsync: "always" });
    onTestFinished(() => server.dispose());
    await withClient(server.url, (redis) => redis.set("fsynced", "1"));

    await server.kill();
    expect(server.pid()).toBeUndefined();
    await server.start();

    // appendfsync always: nothing acknowledged is lost even to SIGKILL.
    expect(await withClient(server.url, (redis) => redis.get("fsynced"))).toBe("1");
  });
});
