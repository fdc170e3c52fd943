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

  it("reports how full the node is against its maxmemory, and nothing without a limit", async () => {
    await redis.config("SET", "maxmemory", "0");
    expect((await redisHealth(redis)).memoryFillRatio).toBeUndefined();
    try {
      await redis.config("SET", "maxmemory", String(64 * 1024 * 1024));
      const health = await redisHealth(redis);
      const used = health.usedMemoryBytes ?? 0;
      expect(health.memoryFillRatio).toBeCloseTo(used / (64 * 1024 * 1024), 2);
      expect(health.memoryFillRatio).toBeGreaterThan(0);
      expect(health.memoryFillRatio).toBeLessThan(1);
    } finally {
      await redis.config("SET", "maxmemory", "0");
    }
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

  it("reads the policy from INFO where CONFIG is forbidden, and fails where neither tells", async () => {
    await redis.call("ACL", "SETUSER", "noconfig", "on", ">secret", "~*", "&*", "+@all", "-config");
    await redis.call("ACL", "SETUSER", "blind", "on", ">secret", "~*", "&*", "+@all", "-config", "-info");
    const limited = new Redis(server.url, { username: "noconfig", password: "secret" });
    const blind = new Redis(server.url, { username: "blind", password: "secret" });
    try {
      await expect(limited.config("GET", "maxmemory-policy")).rejects.toThrow(/NOPERM/);
      const health = await redisHealth(limited);
      expect(health).toMatchObject({ ok: true, reasons: [], maxmemoryPolicies: ["noeviction"] });
      expect(health.usedMemoryBytes).toBeGreaterThan(0);

      // A managed Redis set to volatile-lru, with CONFIG disabled: still refused.
      await redis.config("SET", "maxmemory-policy", "volatile-lru");
      const evicting = await redisHealth(limited);
      expect(evicting.ok).toBe(false);
      expect(evicting.reasons[0]).toContain("maxmemory-policy volatile-lru");

      const unknown = await redisHealth(blind);
      expect(unknown).toMatchObject({ ok: false, maxmemoryPolicies: ["unknown"] });
      expect(unknown.reasons[0]).toMatch(
        /maxmemory-policy that neither CONFIG nor INFO tells; it must be noeviction/,
      );
    } finally {
      await redis.config("SET", "maxmemory-policy", "noeviction");
      limited.disconnect();
      blind.disconnect();
    }
  });

  it("stays not ready once Redis has evicted keys, even after the policy is set right", async () => {
    const server2 = await startRedisServer({ appendonly: false });
    const small = new Redis(server2.url);
    try {
      await small.config("SET", "maxmemory-policy", "allkeys-random");
      await small.config("SET", "maxmemory", "4mb");
      const value = "x".repeat(10_000);
      for (let i = 0; i < 2_000; i++) await small.set(`k${i}`, value);
      await small.config("SET", "maxmemory-policy", "noeviction");
      await small.config("SET", "maxmemory", "0");
      const health = await redisHealth(small);
      expect(health.ok).toBe(false);
      expect(health.reasons).toEqual([expect.stringMatching(/has evicted \d+ keys since it started/)]);
    } finally {
      small.disconnect();
      await server2.dispose();
    }
  });

  // The timeout itself is withTimeout's, tested on fake timers in redisHealth.test.ts.
  it("fails when Redis does not answer", async () => {
    const dead = unreachableRedis();
    const health = await redisHealth(dead, { timeoutMs: 500 });
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
    // The fullest node against its own limit, not the sum against the sum.
    const limited = masters[2] as Redis;
    await limited.config("SET", "maxmemory", String(32 * 1024 * 1024));
    try {
      const own = await redisHealth(limited);
      expect((await redisHealth(redis)).memoryFillRatio).toBeCloseTo(own.memoryFillRatio ?? Number.NaN, 2);
    } finally {
      await limited.config("SET", "maxmemory", "0");
    }

    const evicting = masters[1] as Redis;
    await evicting.config("SET", "maxmemory-policy", "volatile-lru");
    const health = await redisHealth(redis);
    expect(health.ok).toBe(false);
    expect(health.reasons).toHaveLength(1);
    expect(health.reasons[0]).toContain(`${evicting.options.port}`);
    expect(health.reasons[0]).toContain("maxmemory-policy volatile-lru");
  });
});
