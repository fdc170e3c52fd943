import { recording } from "@vu/testkit";
import { type ApiServer, bodyOf, startApiServer } from "@vu/testkit/api";
import { unreachableRedis } from "@vu/testkit/redis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const now = Date.parse("2026-11-22T12:00:00Z");
let api: ApiServer;

beforeAll(async () => {
  api = await startApiServer({ nowMs: now, rateLimitPerMinute: 5 });
});
afterAll(() => api.close());

describe("authentication", () => {
  it.each([
    ["no header", {}, 'Bearer realm="usage-stats"'],
    ["another scheme", { authorization: "Basic dXNlcjpwYXNz" }, 'Bearer realm="usage-stats"'],
    [
      "a token without the prefix",
      { authorization: "Bearer sk-live-0123456789abcdef0123456789abcdef" },
      'Bearer realm="usage-stats", error="invalid_token"',
    ],
    [
      "an unknown token",
      { authorization: `Bearer sk-vu-${"a".repeat(40)}` },
      'Bearer realm="usage-stats", error="invalid_token"',
    ],
  ])("refuses %s with 401 and a challenge", async (_case, headers, challenge) => {
    for (const path of ["/api/v1/stats", "/api/v1/stats/summary", "/api/v1/stats/dimensions"]) {
      const res = await api.get(path, undefined, headers);
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe(challenge);
      const body = await bodyOf(res);
      expect(body.status).toBe(401);
      expect(JSON.stringify(body)).not.toContain("aaaa");
    }
  });

  it("refuses a revoked token within the cache time", async () => {
    const { token, record } = await api.tokenStore.create("acme", "to revoke");
    expect((await api.get("/api/v1/stats/dimensions", token)).status).toBe(200);
    await api.tokenStore.revoke("acme", record.id);
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect((await api.get("/api/v1/stats/dimensions", token)).status).toBe(401);
  });

  it("answers every query for the token's own organization only", async () => {
    await api.write("acme", [recording("a1", "2026-11-20T10:00:00Z", { app_name: "AcmeApp" })]);
    await api.write("globex", [
      recording("g1", "2026-11-20T10:00:00Z", {
        organization_id: "globex",
        app_name: "GlobexApp",
        word_count: 999,
      }),
    ]);
    const globex = await api.createToken("globex");
    const dims = await bodyOf(await api.get("/api/v1/stats/dimensions", globex));
    expect(dims.app_names).toEqual(["GlobexApp"]);
    const summary = await bodyOf(await api.get("/api/v1/stats/summary", globex));
    expect(summary.total_words).toBe(999);
    expect(summary.total_recordings).toBe(1);
  });
});

describe("rate limit", () => {
  it("gives 429 with Retry-After and RateLimit headers past the per-token limit", async () => {
    const token = await api.createToken("ratelimited");
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 7; i++) {
      last = await api.get("/api/v1/stats/dimensions", token);
      statuses.push(last.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429, 429]);
    expect(Number(last?.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(last?.headers.get("ratelimit-policy")).toMatch(/q=5/);
    expect(last && (await bodyOf(last)).status).toBe(429);
    const other = await api.createToken("ratelimited");
    expect((await api.get("/api/v1/stats/dimensions", other)).status).toBe(200);
  });
});

describe("requests without a valid token", () => {
  it("are limited per client address; a valid token from that address still passes, cached or not", async () => {
    const limited = await startApiServer({ nowMs: now, unauthenticatedPerMinute: 3, tokenCacheMs: 5_000 });
    try {
      const token = await limited.createToken("held");
      expect((await limited.get("/api/v1/stats/dimensions", token)).status).toBe(200);
      const madeUp = `sk-vu-${"m".repeat(40)}`;
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++) statuses.push((await limited.get("/api/v1/stats", madeUp)).status);
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      const held = await limited.get("/api/v1/stats/summary");
      expect(held.status).toBe(429);
      expect(held.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(Number(held.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(held.headers.get("ratelimit-policy")).toMatch(/q=3/);
      expect((await limited.get("/api/v1/stats/dimensions", token)).status).toBe(200);
      // A token nobody at this address used before: looked up, found valid, served.
      const uncached = await limited.createToken("held");
      for (let i = 0; i < 61; i++) await limited.get("/api/v1/stats", `sk-vu-${String(i).padStart(40, "z")}`);
      expect((await limited.get("/api/v1/stats/dimensions", uncached)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe("Redis unavailable", () => {
  it("answers 503 with a problem body, and /readyz says unavailable", async () => {
    const dead = unreachableRedis();
    const down = await startApiServer({ nowMs: now, redis: dead });
    try {
      const res = await down.get("/api/v1/stats", `sk-vu-${"b".repeat(40)}`);
      expect(res.status).toBe(503);
      expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect((await bodyOf(res)).status).toBe(503);
      expect((await down.ops("/readyz")).status).toBe(503);
      expect((await down.ops("/healthz")).status).toBe(200);
    } finally {
      await down.close();
    }
  });
});
