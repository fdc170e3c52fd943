import { type RedisServerHandle, startRedisCluster, startRedisServer, waitFor } from "@vu/infra";
import { createRedisClient, type RedisClient } from "@vu/store";
import { type ApiServer, bodyOf, startApiServer } from "@vu/testkit/api";
import { Cluster } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { API_REDIS_OPTIONS } from "../redisOptions";

// After `SCRIPT FLUSH` (what a Redis restarted without persistence, or a failover, does) the rate
// limiter's script must be loaded again when its NOSCRIPT error comes back, however wrapped;
// otherwise every authenticated request would answer 503 until the API restarted, while /readyz
// said 200. These tests flush or restart private Redis servers, never the shared one.

const now = Date.parse("2026-11-22T12:00:00Z");

async function flushScripts(url: string): Promise<void> {
  const admin = createRedisClient(url);
  try {
    if (admin instanceof Cluster) {
      await new Promise<void>((resolve) => admin.once("ready", () => resolve()));
      for (const node of admin.nodes("master")) await node.script("FLUSH");
    } else {
      await admin.script("FLUSH");
    }
  } finally {
    admin.disconnect();
  }
}

async function startOn(url: string, rateLimitPerMinute: number): Promise<ApiServer> {
  const redis: RedisClient = createRedisClient(url, { ...API_REDIS_OPTIONS });
  redis.on("error", () => undefined);
  const api = await startApiServer({
    nowMs: now,
    redisUrl: url,
    redis,
    rateLimitPerMinute,
    tokenCacheMs: 5_000,
  });
  await waitFor(async () => (await api.ops("/readyz")).status === 200, { message: "API ready" });
  return api;
}

const targets = [
  {
    name: "a single Redis",
    start: async () => {
      const server = await startRedisServer({ appendonly: false });
      return { url: server.url, stop: () => server.dispose() };
    },
  },
  {
    name: "a 3-node Redis Cluster",
    start: async () => {
      const cluster = await startRedisCluster();
      return { url: cluster.url, stop: () => cluster.stop() };
    },
  },
];

describe.each(targets)("the rate limiter on $name", (target) => {
  let url: string;
  let stop: () => Promise<void>;
  beforeAll(async () => {
    ({ url, stop } = await target.start());
  });
  afterAll(() => stop());

  it("reloads its script after SCRIPT FLUSH and keeps counting", async () => {
    const api = await startOn(url, 6);
    try {
      const token = await api.createToken("flushed");
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await api.get("/api/v1/stats/dimensions", token)).status);
      await flushScripts(url);
      expect((await api.ops("/readyz")).status).toBe(200);
      for (let i = 0; i < 4; i++) statuses.push((await api.get("/api/v1/stats/dimensions", token)).status);
      // The readiness probe counts on a key of its own, not the token's: 6 requests pass, the 7th is over.
      expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 429]);
    } finally {
      await api.close();
    }
  });
});

describe("a Redis restarted without persistence", () => {
  let server: RedisServerHandle;
  beforeAll(async () => {
    server = await startRedisServer({ appendonly: false });
  });
  afterAll(() => server.dispose());

  it("answers 503 with a problem body while Redis is away (fail closed), then serves again without an API restart", async () => {
    const api = await startOn(server.url, 1_000);
    try {
      const token = await api.createToken("restarted");
      expect((await api.get("/api/v1/stats/dimensions", token)).status).toBe(200);

      await server.stop();
      // The token is still cached: the rate limiter is the first to need Redis, and it refuses.
      const down = await api.get("/api/v1/stats/dimensions", token);
      expect(down.status).toBe(503);
      expect(down.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(down.headers.get("retry-after")).toBe("5");
      expect(down.headers.get("ratelimit")).toBeNull();
      expect((await bodyOf(down)).status).toBe(503);
      // A readiness verdict is reused for up to a second (cachedReadiness): wait for the next one.
      let notReady = await api.ops("/readyz");
      await waitFor(
        async () => {
          notReady = await api.ops("/readyz");
          return notReady.status === 503;
        },
        { timeoutMs: 10_000, message: "/readyz says unavailable" },
      );
      expect((await bodyOf(notReady)).reasons).not.toEqual([]);

      await server.start();
      await waitFor(async () => (await api.ops("/readyz")).status === 200, {
        timeoutMs: 20_000,
        message: "API ready again",
      });
      // Scripts do not survive a restart; the data may (RDB on shutdown), so take a fresh token.
      const again = await api.createToken("restarted");
      expect((await api.get("/api/v1/stats/dimensions", again)).status).toBe(200);
    } finally {
      await api.close();
    }
  });
});
