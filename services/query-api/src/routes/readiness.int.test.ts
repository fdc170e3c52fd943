import { type RedisServerHandle, startRedisServer, waitFor } from "@vu/infra";
import { type ApiServer, bodyOf, startApiServer } from "@vu/testkit/api";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// /readyz says whether the API can serve and be trusted, not only whether Redis answers PING.
// A private redis-server: the shared one's maxmemory-policy must not change under other tests.

let server: RedisServerHandle;
let admin: Redis;
let api: ApiServer;

beforeAll(async () => {
  server = await startRedisServer({ appendonly: false });
  admin = new Redis(server.url);
  api = await startApiServer({ nowMs: Date.parse("2026-11-22T12:00:00Z"), redisUrl: server.url });
});
afterAll(async () => {
  await api.close();
  admin.disconnect();
  await server.dispose();
});

/** /readyz once it answers `status`: a verdict is reused for up to a second (cachedReadiness). */
async function readyzOnce(status: number): Promise<Response> {
  let res = await api.ops("/readyz");
  await waitFor(
    async () => {
      res = await api.ops("/readyz");
      return res.status === status;
    },
    { timeoutMs: 10_000, message: `/readyz answers ${status}` },
  );
  return res;
}

function metric(text: string, name: string): number | undefined {
  const match = new RegExp(`^${name} (\\S+)$`, "m").exec(text);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

describe("/readyz and Redis metrics", () => {
  it("is ready on a non-evicting Redis and exports its memory use", async () => {
    const res = await api.ops("/readyz");
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ready", reasons: [] });
    const metrics = await (await api.ops("/metrics")).text();
    expect(metric(metrics, "vu_redis_used_memory_bytes")).toBeGreaterThan(100_000);
    expect(metric(metrics, "vu_redis_healthy")).toBe(1);
    // What the dashboard and the alerts (infra/observability) read besides.
    expect(metric(metrics, 'vu_view_state\\{state="live"\\}')).toBe(1);
    expect(metric(metrics, 'vu_view_state\\{state="replaying"\\}')).toBe(0);
    expect(metric(metrics, 'vu_result_cache_lookups_total\\{outcome="hit"\\}')).toBe(0);
    // No maxmemory: no ratio (NaN), never a 0 that would read as an empty Redis.
    expect(metric(metrics, "vu_redis_memory_fill_ratio")).toBeNaN();
    await admin.config("SET", "maxmemory", String(512 * 1024 * 1024));
    try {
      const limited = await (await api.ops("/metrics")).text();
      expect(metric(limited, "vu_redis_memory_fill_ratio")).toBeGreaterThan(0);
      expect(metric(limited, "vu_redis_memory_fill_ratio")).toBeLessThan(0.5);
    } finally {
      await admin.config("SET", "maxmemory", "0");
    }
  });

  it("is not ready, and says why, while Redis may evict keys", async () => {
    await admin.config("SET", "maxmemory-policy", "allkeys-lru");
    try {
      const res = await readyzOnce(503);
      const body = await bodyOf(res);
      expect(body.status).toBe("unavailable");
      expect(body.reasons).toEqual([
        expect.stringMatching(/maxmemory-policy allkeys-lru.*must be noeviction/),
      ]);
      const metrics = await (await api.ops("/metrics")).text();
      expect(metric(metrics, "vu_redis_healthy")).toBe(0);
      expect(metric(metrics, "vu_redis_used_memory_bytes")).toBeGreaterThan(0);
    } finally {
      await admin.config("SET", "maxmemory-policy", "noeviction");
    }
    expect((await readyzOnce(200)).status).toBe(200);
  });
});
