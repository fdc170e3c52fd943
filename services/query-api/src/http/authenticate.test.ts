import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { createLogger, listen } from "@vu/service-runtime";
import type { TokenRecord } from "@vu/store";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import type { TokenAuthenticator } from "../auth/tokenAuthenticator";
import { authenticate } from "./authenticate";
import { createErrorHandler } from "./errorHandler";
import type { TrustProxy } from "./trustProxy";
import { createUnauthenticatedLimit } from "./unauthenticatedLimit";

const VALID = `sk-vu-${"v".repeat(40)}`;
const CACHED = `sk-vu-${"c".repeat(40)}`;
const UNKNOWN = `sk-vu-${"u".repeat(40)}`;
const record: TokenRecord = {
  id: "t1",
  org: "acme",
  label: "",
  createdAt: "2026-01-01T00:00:00.000Z",
  lastUsedAt: null,
  revokedAt: null,
};

/** Lookups are what the per-address limit must spare the store: `verify` counts them. */
function fakeAuthenticator() {
  let lookups = 0;
  const authenticator: TokenAuthenticator = {
    async verify(token) {
      if (token !== CACHED) lookups += 1;
      return token === VALID || token === CACHED ? record : null;
    },
    forgetRefusal: () => undefined,
  };
  return { authenticator, lookups: () => lookups };
}

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((close) => close()));
});

async function serve(options: { perMinute: number; trustProxy?: TrustProxy; now?: () => number }) {
  const { authenticator, lookups } = fakeAuthenticator();
  const limit = createUnauthenticatedLimit({ perMinute: options.perMinute, now: options.now });
  const app = express();
  app.set("trust proxy", options.trustProxy ?? false);
  app.get("/x", authenticate(authenticator, limit), (_req, res) => {
    res.json(res.locals);
  });
  app.use(createErrorHandler(createLogger("test", "silent")));
  const server = createServer(app);
  await listen(server, 0, "127.0.0.1");
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/x`;
  const get = (token?: string, headers: Record<string, string> = {}) =>
    fetch(base, { headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...headers } });
  return { get, lookups };
}

describe("the per-address limit on requests without a valid token", () => {
  it("answers 429 past the limit, with Retry-After and RateLimit headers", async () => {
    const api = await serve({ perMinute: 3 });
    expect((await api.get()).status).toBe(401);
    expect((await api.get(undefined, { authorization: "Basic dXNlcjpwYXNz" })).status).toBe(401);
    expect((await api.get(UNKNOWN)).status).toBe(401);
    expect(api.lookups()).toBe(1);

    for (const token of [UNKNOWN, undefined, "not-a-token"]) {
      const res = await api.get(token);
      expect(res.status).toBe(429);
      expect(res.headers.get("content-type")).toMatch(/^application\/problem\+json/);
      expect(Number(res.headers.get("retry-after"))).toBeGreaterThan(0);
      expect(res.headers.get("ratelimit-policy")).toBe('"unauthenticated";q=3;w=60');
      expect(res.headers.get("ratelimit")).toMatch(/^"unauthenticated";r=0;t=\d+$/);
      expect(((await res.json()) as { status: number }).status).toBe(429);
    }
    // Requests without a well-formed token cost no lookup once the address is held.
    expect(api.lookups()).toBe(2);
  });

  it("never refuses a valid token for its neighbours' mistakes, cached or not", async () => {
    const api = await serve({ perMinute: 3 });
    for (let i = 0; i < 3; i++) expect((await api.get(UNKNOWN)).status).toBe(401);
    for (let i = 0; i < 60; i++)
      expect((await api.get(`sk-vu-${String(i).padStart(40, "x")}`)).status).toBe(429);
    expect((await api.get(VALID)).status).toBe(200);
    expect((await api.get(CACHED)).status).toBe(200);
  });

  it("still serves a token cached as valid from a held address", async () => {
    const api = await serve({ perMinute: 1 });
    expect((await api.get(UNKNOWN)).status).toBe(401);
    expect((await api.get(UNKNOWN)).status).toBe(429);
    expect((await api.get(CACHED)).status).toBe(200);
  });

  it("counts only refusals: valid requests never use up the budget", async () => {
    const api = await serve({ perMinute: 2 });
    for (let i = 0; i < 20; i++) expect((await api.get(VALID)).status).toBe(200);
    expect((await api.get(UNKNOWN)).status).toBe(401);
    expect((await api.get(UNKNOWN)).status).toBe(401);
    expect((await api.get(UNKNOWN)).status).toBe(429);
  });

  it("lets the address try again when its minute is over", async () => {
    let now = 1_000_000;
    const api = await serve({ perMinute: 1, now: () => now });
    expect((await api.get(UNKNOWN)).status).toBe(401);
    const held = await api.get(UNKNOWN);
    expect(held.status).toBe(429);
    expect(held.headers.get("retry-after")).toBe("60");
    now += 60_000;
    expect((await api.get(UNKNOWN)).status).toBe(401);
  });

  it("ignores X-Forwarded-For unless TRUST_PROXY trusts the sender", async () => {
    const direct = await serve({ perMinute: 1 });
    expect((await direct.get(UNKNOWN, { "x-forwarded-for": "198.51.100.1" })).status).toBe(401);
    expect((await direct.get(UNKNOWN, { "x-forwarded-for": "198.51.100.2" })).status).toBe(429);

    const proxied = await serve({ perMinute: 1, trustProxy: ["loopback"] });
    expect((await proxied.get(UNKNOWN, { "x-forwarded-for": "198.51.100.1" })).status).toBe(401);
    expect((await proxied.get(UNKNOWN, { "x-forwarded-for": "198.51.100.2" })).status).toBe(401);
    expect((await proxied.get(UNKNOWN, { "x-forwarded-for": "198.51.100.1" })).status).toBe(429);
    // IPv6 clients count by /56: another address of the same prefix shares the budget.
    expect((await proxied.get(UNKNOWN, { "x-forwarded-for": "2001:db8:0:1::1" })).status).toBe(401);
    expect((await proxied.get(UNKNOWN, { "x-forwarded-for": "2001:db8:0:2::9" })).status).toBe(429);
  });
});
