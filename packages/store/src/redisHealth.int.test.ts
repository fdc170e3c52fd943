import {
  type RedisClusterHandle,
  type RedisServerHandle,
  startRedisCluster,
  startRedisServer,
} from "@vu/infra";
import { unreachableRedis } from "@vu/testkit/redis";
import { Cluster, Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRedisClient } from "./redisClient";
import { redisHealth } from "./redisHealth";

// Private servers only: these tests change maxmemory-policy and ACLs, which the shared Redis must keep.

describe("redisHealth on a single Redis", () => {
  let server: RedisServerHandle;
  let redis: Redis;
  beforeAll(async () => {
    server = await startRedisServer({ appendonly: false });
    redis = new Redis(server.url);
  });
  afterAll(async () => {
    redis.disconnect();
    await server.dispose();
  });

  it("is ok with noeviction and reports the memory in use", async () => {
    await redis.config("SET", "maxmemory-policy", "noeviction");
    const health = await redisHealth(redis);
    expect(health).toMatchObject({ ok: true, reasons: [], maxmemoryPolicies: ["noeviction"] });
    expect(health.usedMemoryBytes).toBeGreaterThan(100_000);
  });

  it.each(["allkeys-lru", "volatile-ttl", "allkeys-random"])("fails with %s and says why", async (policy) => {
    await redis.config("SET", "maxmemory-policy", policy);
    try {
      const health = await redisHealth(redis);
      expect(health.ok).toBe(false);
      expect(health.reasons).toHaveLength(1);
      expect(health.reasons[0]).toContain(`maxmemory-policy ${policy}`);
      expect(health.reasons[0]).toMatch(/must be noeviction.*dedupe table.*count recordings twice/);
      expect(health.usedMemoryBytes).toBeGreaterThan(0);
    } finally {
      await redis.config("SET", "maxmemory-policy", "noeviction");
    }
  });

  it("tolerates CONFIG being forbidden: the policy is unknown, not a failure", async () => {
    await redis.call("ACL", "SETUSER", "noconfig", "on", ">secret", "~*", "&*", "+@all", "-config");
    const limited = new Redis(server.url, { username: "noconfig", password: "secret" });
    try {
      await expect(limited.config("GET", "maxmemory-policy")).rejects.toThrow(/NOPERM/);
      const health = await redisHealth(limited);
      expect(health).toMatchObject({ ok: true, reasons: [], maxmemoryPolicies: ["unknown"] });
      expect(health.usedMemoryBytes).toBeGreaterThan(0);
    } finally {
      limited.disconnect();
    }
  });

  it("fails, within its timeout, when Redis does not answer", async () => {
    const dead = unreachableRedis();
    const started = Date.now();
    const health = await redisHealth(dead, { timeoutMs: 500 });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(health.ok).toBe(false);
    expect(health.reasons[0]).toMatch(/127\.0\.0\.1:1/);
    expect(health.usedMemoryBytes).toBeUndefined();
    dead.disconnect();
  });
});

describe("redisHealth on a Redis Cluster", () => {
  let cluster: RedisClusterHandle;
  let redis: Cluster;
  beforeAll(async () => {
    cluster = await startRedisCluster();
    const client = createRedisClient(cluster.url);
    if (!(client instanceof Cluster)) throw new Error("expected a cluster client");
    redis = client;
    await new Promise<void>((resolve) => redis.once("ready", () => resolve()));
  });
  afterAll(async () => {
    redis.disconnect();
    await cluster.stop();
  });

  it("checks every master and names the one that evicts", async () => {
    const masters = redis.nodes("master");
    expect(masters).toHaveLength(3);
    const healthy = await redisHealth(redis);
    expect(healthy).toMatchObject({ ok: true, reasons: [] });
    expect(healthy.maxmemoryPolicies).toEqual(["noeviction", "noeviction", "noeviction"]);
    // Summed over the masters: more than any single node uses.
    const one = await redisHealth(masters[0] as Redis);
    expect(healthy.usedMemoryBytes).toBeGreaterThan(one.usedMemoryBytes ?? 0);

    const evicting = masters[1] as Redis;
    await evicting.config("SET", "maxmemory-policy", "volatile-lru");
    const health = await redisHealth(redis);
    expect(health.ok).toBe(false);
    expect(health.reasons).toHaveLength(1);
    expect(health.reasons[0]).toContain(`${evicting.options.port}`);
    expect(health.reasons[0]).toContain("maxmemory-policy volatile-lru");
  });
});
