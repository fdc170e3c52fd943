// The upgrade to signed token records: a deployment whose tokens topic holds only the unsigned
// records the tokens CLI wrote before records were signed (which a restore refuses) runs
// `tokens resign`, and its tokens, active and revoked, then survive a Redis loss.
import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type DurableTokenRecord, readTokenTopicMessages } from "@vu/events";
import { restoreTokens } from "@vu/ingest-worker";
import { createToken, resignTokens, topicMessageReader } from "@vu/query-api";
import { createLogger } from "@vu/service-runtime";
import {
  createKeyspace,
  createRedisClient,
  createTokenStore,
  generateToken,
  hashToken,
  type Keyspace,
  unlinkKeys,
} from "@vu/store";
import { brokers, isolatedNames, redisUrl, TEST_TOKENS_SIGNING_KEY, uniquePrefix } from "@vu/testkit";
import { testKafka } from "@vu/testkit/kafka";
import { durableTokens, testTokenSigner } from "@vu/testkit/tokens";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";

const repoRoot = fileURLToPath(new URL("..", import.meta.url));
const redis = createRedisClient(redisUrl());
const kafka = testKafka();
const logger = createLogger("test-token-resign", "silent");
const signer = testTokenSigner();
afterAll(() => redis.quit());

async function isolatedTokenTopics() {
  const names = isolatedNames("resign");
  const made = await durableTokens(kafka, redis, names);
  onTestFinished(() => made.close());
  return { ...made, names, keyspace: createKeyspace({ prefix: names.prefix }) };
}

/**
 * Tokens as the tokens CLI made them before records were signed: in Redis (the token's hash, then
 * the organization's index entry; a revoke added `revoked_at` with HSETNX) and in the tokens topic
 * as `{ id, org, label, created_at, revoked_at }` without `sig`, written by a plain producer.
 */
function oldCli(topic: string, keyspace: Keyspace) {
  const producer = kafka.producer();
  let connected = false;
  onTestFinished(async () => {
    if (connected) await producer.disconnect();
  });
  const sendRecord = async (hash: string, r: DurableTokenRecord) => {
    if (!connected) await producer.connect();
    connected = true;
    const value = { id: r.id, org: r.org, label: r.label, created_at: r.createdAt, revoked_at: r.revokedAt };
    await producer.send({ topic, acks: -1, messages: [{ key: hash, value: JSON.stringify(value) }] });
  };
  return {
    async create(org: string, label: string) {
      const token = generateToken();
      const hash = hashToken(token);
      const record: DurableTokenRecord = {
        id: randomUUID(),
        org,
        label,
        createdAt: new Date().toISOString(),
        revokedAt: null,
      };
      await sendRecord(hash, record);
      await redis.hset(keyspace.token(hash), { id: record.id, org, label, created_at: record.createdAt });
      await redis.hset(keyspace.orgTokens(org), record.id, hash);
      return { token, hash, record };
    },
    async revoke(created: { hash: string; record: DurableTokenRecord }) {
      const revokedAt = new Date().toISOString();
      await redis.hsetnx(keyspace.token(created.hash), "revoked_at", revokedAt);
      await sendRecord(created.hash, { ...created.record, revokedAt });
      return revokedAt;
    },
  };
}

/** The Redis loss: every key of the prefix goes (SCAN and UNLINK, confined to this test). */
async function loseRedis(keyspace: Keyspace): Promise<void> {
  expect(await unlinkKeys(redis, `${keyspace.prefix}:*`)).toBeGreaterThan(0);
}

/** `npm run tokens -- resign` on this test's prefix and topic, as an operator runs it. */
async function resignCli(prefix: string, topic: string, ...flags: string[]) {
  return promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "services/query-api/src/cli/tokens.ts", "resign", ...flags],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        REDIS_URL: redisUrl(),
        REDIS_PREFIX: prefix,
        KAFKA_BROKERS: brokers().join(","),
        TOKENS_TOPIC: topic,
        TOKENS_SIGNING_KEY: TEST_TOKENS_SIGNING_KEY,
      },
    },
  );
}

describe("tokens resign", () => {
  it("signs the unsigned tokens of every organization, so that they come back, active and revoked, after a Redis loss", async () => {
    const { tokensTopic, deps, keyspace, tokens } = await isolatedTokenTopics();
    const old = oldCli(tokensTopic, keyspace);
    const active = await old.create("acme", "stays active");
    const revoked = await old.create("acme", "revoked before the upgrade");
    const revokedAt = await old.revoke(revoked);
    const other = await old.create("globex", "another organization");
    // Revoked before the upgrade, then Redis went back to a state before the revocation: the topic
    // alone has it, unsigned.
    const rolledBack = await old.create("globex", "revoked, then rolled back");
    const rolledBackAt = await old.revoke(rolledBack);
    await redis.hdel(keyspace.token(rolledBack.hash), "revoked_at");
    // Made after the upgrade: signed already.
    const recent = await createToken(deps, "acme", "signed already");
    await tokens.touch(active.token, new Date("2026-03-04T05:06:07.000Z"));

    // The problem: a restore refuses every old record (here into an empty prefix of its own).
    const elsewhere = createTokenStore({
      redis,
      keyspace: createKeyspace({ prefix: uniquePrefix("resign") }),
    });
    expect(await restoreTokens({ kafka, topic: tokensTopic, signer, tokens: elsewhere, logger })).toEqual({
      restored: 1,
      refused: 6,
      conflicts: 0,
    });

    // Without the flag, the unsigned revocation only the topic has is reported, not applied: anyone
    // who may write the topic could have written it.
    const cautious = await resignCli(keyspace.prefix, tokensTopic);
    expect(cautious.stderr).toContain(
      `token ${rolledBack.record.id} of globex is active in Redis, and an unsigned record of the tokens topic says it was revoked (${rolledBackAt}): not applied`,
    );
    expect(cautious.stdout).toBe(
      `signed 4 tokens with key ${signer.keyId} (1 revoked); 1 were signed already and skipped\n`,
    );
    expect((await tokens.find(rolledBack.token))?.revokedAt).toBeNull();
    // Only the old CLI ever wrote this topic: the operator trusts its unsigned revocations.
    const cli = await resignCli(keyspace.prefix, tokensTopic, "--trust-unsigned-revocations");
    expect(cli.stdout).toBe(
      `signed 1 tokens with key ${signer.keyId} (1 revoked); 4 were signed already and skipped\n`,
    );
    expect(cli.stderr).toContain(
      `token ${rolledBack.record.id} of globex was active in Redis and revoked in the tokens topic: signed revoked (${rolledBackAt}), and revoked in Redis`,
    );
    // The revocation only the topic had is back in Redis at once.
    expect((await tokens.find(rolledBack.token))?.revokedAt).toBe(rolledBackAt);

    // Idempotent: a second run writes nothing.
    const { high } = await topicEnds(tokensTopic);
    const again = await resignTokens({
      tokens,
      records: deps.records,
      signer,
      readTopic: topicMessageReader({ kafka, topic: tokensTopic }),
    });
    expect(again).toEqual({
      signed: 0,
      revoked: 0,
      skipped: 5,
      revokedFromTopic: [],
      unsignedRevocations: [],
      revokedMeanwhile: 0,
      incomplete: 0,
      invalid: [],
      unverifiedNotInRedis: 0,
    });
    expect((await topicEnds(tokensTopic)).high).toBe(high);

    await loseRedis(keyspace);
    expect(await tokens.find(active.token)).toBeNull();
    // The old records are still there until compaction removes them, and still refused.
    expect(await restoreTokens({ kafka, topic: tokensTopic, signer, tokens, logger })).toEqual({
      restored: 5,
      refused: 6,
      conflicts: 0,
    });
    expect(await tokens.find(active.token)).toEqual({ ...active.record, lastUsedAt: null });
    expect(await tokens.find(revoked.token)).toEqual({ ...revoked.record, revokedAt, lastUsedAt: null });
    expect(await tokens.find(other.token)).toEqual({ ...other.record, lastUsedAt: null });
    expect(await tokens.find(rolledBack.token)).toEqual({
      ...rolledBack.record,
      revokedAt: rolledBackAt,
      lastUsedAt: null,
    });
    expect(await tokens.find(recent.token)).toMatchObject({ id: recent.record.id, revokedAt: null });
    expect((await tokens.list("acme")).map((t) => t.id).sort()).toEqual(
      [active.record.id, revoked.record.id, recent.record.id].sort(),
    );
    expect((await tokens.list("globex")).map((t) => t.id).sort()).toEqual(
      [other.record.id, rolledBack.record.id].sort(),
    );
  });

  it("refuses to run without a tokens topic, and writes nothing", async () => {
    const { tokensTopic, keyspace } = await isolatedTokenTopics();
    const old = oldCli(tokensTopic, keyspace);
    await old.create("acme", "x");
    await expect(resignCli(keyspace.prefix, `${tokensTopic}.missing`)).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/tokens topic does not exist.*nothing was signed/),
    });
  });
});

/** The number of messages the tokens topic holds (every partition's end, summed). */
async function topicEnds(topic: string): Promise<{ high: bigint }> {
  const ends = await readTokenTopicMessages({ kafka, topic, onMessage: () => undefined });
  return { high: [...(ends ?? new Map<number, bigint>()).values()].reduce((a, b) => a + b, 0n) };
}
