// The Redis ACL users of infra/docker-compose.yml (packages/store/src/auth/redisAcl.ts renders them; the
// compose test holds the compose file to it), on a Redis of this test's own with `default` off:
// each process' code runs as its user and succeeds (the tokens CLI's create, list, revoke and resign; the
// worker's restore, counting, revocation watch and rebuild; the API's reads, token checks, rate
// limit, /readyz and /metrics), Redis refuses none of their commands (its ACL LOG stays empty), and
// a command or key outside a user's list is refused.
import { createHash, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRecordingProducer } from "@vu/events";
import { type RedisServerHandle, startRedisServer, waitFor } from "@vu/infra";
import { runRebuild } from "@vu/ingest-worker";
import { createToken, resignTokens, revokeToken, topicMessageReader } from "@vu/query-api";
import { createLogger } from "@vu/service-runtime";
import {
  createKeyspace,
  createRedisClient,
  currentGeneration,
  REDIS_ACL_ROLES,
  type RedisAclRole,
  type RedisClient,
  redisAclFile,
} from "@vu/store";
import { isolatedNames, recordingEvent } from "@vu/testkit";
import { bodyOf, startApiServer } from "@vu/testkit/api";
import { waitUntilViewCaughtUp } from "@vu/testkit/caughtUp";
import { testKafka } from "@vu/testkit/kafka";
import { durableTokens, testTokenSigner } from "@vu/testkit/tokens";
import { QUICK_REBALANCE_ENV, startInProcessWorker, workerConfig } from "@vu/testkit/worker";
import { Redis } from "ioredis";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

/** Compose's prefix (REDIS_PREFIX's default): the users' key patterns are the deployment's own. */
const PREFIX = "vu";
const keyspace = createKeyspace({ prefix: PREFIX });
const kafka = testKafka();
const passwords = Object.fromEntries(
  [...REDIS_ACL_ROLES, "admin"].map((role) => [role, randomBytes(32).toString("hex")]),
) as Record<RedisAclRole | "admin", string>;
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

let server: RedisServerHandle;
let aclDir: string | undefined;
/** This test's own eyes on Redis (not one of the deployment's users): the ACL LOG, the view. */
let admin: Redis;
/** Commands the server does not know, left out of the rendered file (`client|setinfo` before 7.2). */
let omitted: string[] = [];
const clients: RedisClient[] = [];

const urlOf = (role: RedisAclRole) => `redis://${role}:${passwords[role]}@127.0.0.1:${server.port}`;
function clientAs(role: RedisAclRole): RedisClient {
  const client = createRedisClient(urlOf(role), { maxRetriesPerRequest: 2 });
  client.on("error", () => undefined);
  clients.push(client);
  return client;
}

beforeAll(async () => {
  // Started open (the launcher's PING has no password), then given the deployment's users.
  aclDir = mkdtempSync(join(tmpdir(), "vu-redis-acl-"));
  const aclFile = join(aclDir, "users.acl");
  writeFileSync(aclFile, "user default on nopass ~* &* +@all\n");
  server = await startRedisServer({ appendonly: false, extraArgs: ["--aclfile", aclFile] });
  const bootstrap = new Redis(server.url);
  const version = /redis_version:(\d+)\.(\d+)/.exec(await bootstrap.info("server")) ?? [];
  if (Number(version[1]) * 100 + Number(version[2]) < 702) omitted = ["client|setinfo"];
  // The deployment's users (VU_ACL_OMIT=cmd,… leaves commands out: which does the code need?),
  // and one of this test's own.
  const users = redisAclFile({
    prefix: PREFIX,
    password: (role) => `#${sha256(passwords[role])}`,
    omit: [...omitted, ...(process.env.VU_ACL_OMIT?.split(",") ?? [])],
  });
  writeFileSync(aclFile, `${users}user admin on >${passwords.admin} ~* &* +@all\n`);
  await bootstrap.call("ACL", "LOAD");
  bootstrap.disconnect();
  admin = new Redis(`redis://admin:${passwords.admin}@127.0.0.1:${server.port}`);
  await admin.call("ACL", "LOG", "RESET");
}, 120_000);

afterAll(async () => {
  for (const client of clients) client.disconnect();
  admin?.disconnect();
  await server?.dispose();
  if (aclDir !== undefined) rmSync(aclDir, { recursive: true, force: true });
});

/** Redis' record of refused commands and keys: `[reason, context, object, username]` each. */
async function aclLog(): Promise<string[][]> {
  const entries = (await admin.call("ACL", "LOG", "1000")) as unknown[][];
  return entries.map((entry) => {
    const fields = new Map<string, unknown>();
    for (let i = 0; i + 1 < entry.length; i += 2) fields.set(String(entry[i]), entry[i + 1]);
    return ["reason", "context", "object", "username"].map((name) => String(fields.get(name)));
  });
}

describe("compose's Redis ACL users", () => {
  it("let the tokens CLI, the worker, the rebuild and the API do all they do, and refuse nothing of it", async () => {
    const names = { ...isolatedNames("redis-acl"), prefix: PREFIX };
    const tokensRedis = clientAs("tokens");
    // The tokens CLI's code path (createToken, revokeToken, list) as the `tokens` user.
    const made = await durableTokens(kafka, tokensRedis, names, { partitions: 1 });
    const { token } = await createToken(made.deps, "acme", "reads");
    const doomed = await createToken(made.deps, "acme", "revoked");
    expect(await revokeToken(made.deps, "acme", doomed.record.id)).toMatchObject({ id: doomed.record.id });
    expect((await made.tokens.list("acme")).map((t) => t.revokedAt !== null)).toEqual([false, true]);
    // `resign` goes over every token key (SCAN) and signs what the topic lacks: nothing, here.
    const resigned = await resignTokens({
      tokens: made.tokens,
      records: made.records,
      signer: testTokenSigner(),
      readTopic: topicMessageReader({ kafka, topic: made.tokensTopic }),
    });
    expect(resigned).toMatchObject({ signed: 0, skipped: 2 });
    // Gone from Redis (not from the topic): the worker restores it when it starts.
    await admin.unlink(keyspace.token(createHash("sha256").update(token).digest("hex")));

    // The worker as `worker`: restores the tokens, counts, watches revocations.
    const env = { ...QUICK_REBALANCE_ENV, TOKENS_TOPIC: made.tokensTopic, TOKENS_REVOCATION_CHECK_MS: "200" };
    const worker = await startInProcessWorker({ kafka, redisUrl: urlOf("worker"), names, env });
    const producer = createRecordingProducer({ kafka, topic: names.topic });
    await producer.connect();
    const hourAgo = new Date(Date.now() - 3_600_000).toISOString();
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    const apps = ["Zoom", "Meet", "Teams", "Slack"];
    await producer.send(
      Array.from({ length: 40 }, (_, i) =>
        recordingEvent(`acl-${i}`, hourAgo, { app_name: apps[i % 4], member_email: `m${i % 5}@example.com` }),
      ),
    );
    await producer.disconnect();
    await waitUntilViewCaughtUp(kafka, names.topic, admin, PREFIX, 60_000);

    // The API as `api`, reading in slices of two fields so that the sliced and large-read paths run.
    const api = await startApiServer({
      nowMs: Date.now(),
      prefix: PREFIX,
      redisUrl: `redis://admin:${passwords.admin}@127.0.0.1:${server.port}`,
      redis: clientAs("api"),
      openEpoch: false,
      readSliceFields: 2,
      largeReadFields: 2,
    });
    try {
      const summary = await api.get("/api/v1/stats/summary?start_date=2000-01-01", token);
      expect(summary.status).toBe(200);
      expect(await bodyOf(summary)).toMatchObject({ total_recordings: 40 });
      for (const path of [
        `/api/v1/stats?granularity=hour&group_by=app_name,member_email&start_date=${yesterday}`,
        "/api/v1/stats/dimensions?start_date=2000-01-01",
      ]) {
        expect((await api.get(path, token)).status, path).toBe(200);
      }
      expect((await api.get("/api/v1/stats/summary", doomed.token)).status).toBe(401);
      for (const path of ["/readyz", "/metrics"] as const) {
        const res = await api.ops(path);
        expect(res.status, `${path}: ${await res.text()}`).toBe(200);
      }

      // The rebuild as `worker` (it runs with the worker's environment): a new generation, the
      // switch, the old one unlinked; the API follows it.
      const rebuilt = await runRebuild({
        kafka,
        redis: clientAs("worker"),
        keyspace,
        logger: createLogger("test-rebuild", "silent"),
        overlapMs: 500,
        pollMs: 200,
        config: workerConfig(names, env),
      });
      expect(rebuilt).toMatchObject({ from: 1, to: 2, events: 40 });
      expect(rebuilt.deletedKeys).toBeGreaterThan(0);
      expect(await currentGeneration(admin, keyspace)).toBe(2);
      await waitFor(
        async () => {
          const res = await api.get("/api/v1/stats/summary?start_date=2000-01-01", token);
          return res.status === 200 && (await bodyOf(res)).total_recordings === 40;
        },
        { timeoutMs: 10_000, message: "the API reading the rebuilt generation" },
      );
    } finally {
      await api.close();
      await worker.stop();
      await made.close();
    }
    expect(worker.crashes).toEqual([]);
    expect(await aclLog(), "commands and keys Redis refused").toEqual([]);
  });

  it("refuse every command and key outside a user's list, a script's commands included", async () => {
    await admin.call("ACL", "LOG", "RESET");
    const as = Object.fromEntries(REDIS_ACL_ROLES.map((role) => [role, clientAs(role)])) as Record<
      RedisAclRole,
      RedisClient
    >;
    const log = keyspace.log(1);
    const refused: Array<[RedisAclRole, string, ...string[]]> = [
      ["worker", "FLUSHALL"],
      ["worker", "CONFIG", "SET", "maxmemory-policy", "allkeys-lru"],
      ["worker", "KEYS", "*"],
      ["worker", "ACL", "LIST"],
      ["worker", "GET", "not-the-store:key"],
      ["api", "HSET", log, "state", "live"],
      ["api", "DEL", keyspace.generation()],
      ["api", "SET", keyspace.generation(), "1"],
      ["api", "FLUSHDB"],
      ["api", "SCAN", "0"],
      ["tokens", "HGETALL", log],
      ["tokens", "GET", keyspace.generation()],
      ["tokens", "CONFIG", "GET", "maxmemory-policy"],
    ];
    for (const [role, command, ...args] of refused) {
      await expect(as[role].call(command, ...args), `${role}: ${command} ${args.join(" ")}`).rejects.toThrow(
        /NOPERM/,
      );
    }
    // The API may run scripts (its rate limit) and HSET (a token's last use), but what a script
    // calls is checked against the API's keys too: the view's log is not one it may write.
    await expect(
      as.api.call("EVAL", "return redis.call('HSET', ARGV[1], 'state', 'live')", "0", log),
    ).rejects.toThrow(/user executing the script can.t access/);
    // Without logging in as one of the users, nothing runs (`default` is off).
    const anonymous = new Redis(server.url, { lazyConnect: true, enableReadyCheck: false });
    anonymous.on("error", () => undefined);
    try {
      await anonymous.connect();
      await expect(anonymous.call("PING")).rejects.toThrow(/NOAUTH|NOPERM|WRONGPASS/);
      await expect(anonymous.call("AUTH", "default", "")).rejects.toThrow(/WRONGPASS|disabled/);
    } finally {
      anonymous.disconnect();
    }
    // Each refusal was recorded against the user that tried it.
    const logged = await aclLog();
    for (const role of REDIS_ACL_ROLES) {
      expect(
        logged.some(([, , , user]) => user === role),
        `${role}: ${JSON.stringify(logged)}`,
      ).toBe(true);
    }
    expect(logged.some(([, context, object]) => context === "lua" && object === log)).toBe(true);
  });
});
