import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Writable } from "node:stream";
import { createKeyspace, createRedisClient, createRollupReader, createTokenStore } from "@vu/store";
import { redisUrl, uniquePrefix } from "@vu/testkit";
import { DEFAULT_RETENTION } from "@vu/time-buckets";
import { pino } from "pino";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createApp } from "../app";

// The whole app with a plain pino logger (none of the service logger's redaction) writing into
// memory: what reaches the log must be safe because of what the app hands the logger.

const now = Date.parse("2026-11-22T12:00:00Z");
const EMAIL = "pii.probe@example.com";
const QUERY_TOKEN = `sk-vu-${"Q".repeat(40)}`;
const PATH_TOKEN = `sk-vu-${"P".repeat(40)}`;

let log = "";
const sink = new Writable({
  write(chunk: Buffer, _encoding, done) {
    log += chunk.toString("utf8");
    done();
  },
});
const redis = createRedisClient(redisUrl());
const keyspace = createKeyspace({ prefix: uniquePrefix("request-log") });
const tokens = createTokenStore({ redis, keyspace });
const app = createApp({
  redis,
  keyspace,
  reader: createRollupReader({ redis, keyspace }),
  tokens,
  logger: pino({ level: "info" }, sink),
  config: { retention: DEFAULT_RETENTION, rateLimitPerMinute: 10_000, tokenCacheMs: 100 },
  now: () => now,
});
let server: Server;
let token: string;

beforeAll(async () => {
  server = app.listen(0, "127.0.0.1");
  await new Promise<void>((resolve, reject) => {
    server.once("listening", resolve);
    server.once("error", reject);
  });
  token = (await tokens.create("acme", "request log test")).token;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await redis.quit();
});

/** One request, and the log lines it produced (pino-http logs when the response has finished). */
async function request(path: string, requestId: string, bearer?: string) {
  const { port } = server.address() as AddressInfo;
  const headers: Record<string, string> = { "x-request-id": requestId };
  if (bearer) headers.authorization = `Bearer ${bearer}`;
  const res = await fetch(`http://127.0.0.1:${port}${path}`, { headers });
  await res.arrayBuffer();
  const lines = await vi.waitFor(
    () => {
      const found = log.split("\n").filter((line) => line.includes(`"${requestId}"`));
      if (found.length === 0) throw new Error(`no log line for ${requestId} yet`);
      return found;
    },
    { timeout: 30_000 },
  );
  return { res, lines: lines.join("\n") };
}

describe("request logs", () => {
  it("name a member filter, never its value", async () => {
    // Unauthenticated and at the OpenAPI document: neither reads the statistics, so the lines are about the
    // logging alone (a CSV page's Link header, which repeats the query, is the unit test's).
    const refused = await request(
      `/api/v1/stats?filter[member_email]=${EMAIL}&exclude[member_email]=bob%40example.com`,
      "log-member-filter",
    );
    expect(refused.res.status).toBe(401);
    expect(refused.lines).toContain('"path":"/api/v1/stats"');
    expect(refused.lines).toContain('"filter[member_email]"');
    expect(refused.lines).toContain('"exclude[member_email]"');
    const answered = await request(`/api/v1/openapi.json?filter[member_email]=${EMAIL}`, "log-openapi");
    expect(answered.res.status).toBe(200);
    expect(answered.lines).toContain('"filter[member_email]"');
    for (const lines of [refused.lines, answered.lines]) expect(lines).not.toContain("example.com");
  });

  it("never hold a token: not from the query, the path or the Authorization header", async () => {
    const inQuery = await request(`/api/v1/stats?access_token=${QUERY_TOKEN}`, "log-query-token", token);
    expect(inQuery.res.status).toBe(400);
    expect(inQuery.lines).toContain('"access_token"');
    const inPath = await request(`/api/v1/${PATH_TOKEN}/stats`, "log-path-token");
    expect(inPath.res.status).toBe(404);
    expect(inPath.lines).toContain('"path":"/api/v1/[redacted]/stats"');
    for (const lines of [inQuery.lines, inPath.lines]) expect(lines).not.toContain("sk-vu-");
    expect(log).not.toContain(token);
    expect(log).not.toMatch(/authorization|bearer/i);
  });
});
