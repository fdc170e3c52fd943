// API tokens survive a Redis loss: the tokens CLI's code path writes Redis and the compacted tokens
// topic, the Redis keys are deleted, and `restoreTokens` brings the tokens back from Kafka alone.
import { restoreTokens } from "@vu/ingest-worker";
import { createToken, revokeToken } from "@vu/query-api";
import { createLogger } from "@vu/service-runtime";
import { createKeyspace, createRedisClient, hashToken, type Keyspace } from "@vu/store";
import { isolatedNames, redisUrl } from "@vu/testkit";
import { testKafka } from "@vu/testkit/kafka";
import { durableTokens } from "@vu/testkit/tokens";
import kafkajs from "kafkajs";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";

// kafkajs is CommonJS, and Node's ESM loader cannot see this export by name.
const { ConfigResourceTypes } = kafkajs;

const redis = createRedisClient(redisUrl());
const kafka = testKafka();
const logger = createLogger("test-token-restore", "silent");
afterAll(() => redis.quit());

/** A recordings topic pair and a tokens topic of this test's own, made by the stack's `ensureTopics`. */
async function isolatedTokenTopics() {
  const names = isolatedNames("tokens");
  const made = await durableTokens(kafka, redis, names, { partitions: 1 });
  onTestFinished(() => made.close());
  expect(made.created).toContain(made.tokensTopic);
  return { ...made, names, keyspace: createKeyspace({ prefix: names.prefix }) };
}

/** The Redis loss: every key of the test's prefix goes (a FLUSHALL, confined to this test). */
async function loseRedis(keyspace: Keyspace): Promise<void> {
  const keys = await redis.keys(`${keyspace.prefix}:*`);
  expect(keys.length).toBeGreaterThan(0);
  await redis.del(...keys);
  expect(await redis.keys(`${keyspace.prefix}:*`)).toEqual([]);
}

async function topicConfig(topic: string, name: string): Promise<string | undefined> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const described = await admin.describeConfigs({
      includeSynonyms: false,
      resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configNames: [name] }],
    });
    return described.resources[0]?.configEntries[0]?.configValue;
  } finally {
    await admin.disconnect();
  }
}

describe("restoreTokens", () => {
  it("brings back active and revoked tokens after the Redis keys are lost", async () => {
    const { tokensTopic, records, keyspace, tokens } = await isolatedTokenTopics();
    const deps = { tokens, records };
    const active = await createToken(deps, "acme", "stays active");
    const doomed = await createToken(deps, "acme", "gets revoked");
    const other = await createToken(deps, "globex", "another org");
    const revoked = await revokeToken(deps, "acme", doomed.record.id);
    expect(revoked?.revokedAt).not.toBeNull();
    expect(await revokeToken(deps, "acme", other.record.id)).toBeNull();
    await tokens.touch(active.token, new Date());

    await loseRedis(keyspace);
    expect(await tokens.find(active.token)).toBeNull();

    expect(await restoreTokens({ kafka, topic: tokensTopic, tokens, logger })).toEqual({ restored: 3 });
    expect(await tokens.find(active.token)).toEqual({
      id: active.record.id,
      org: "acme",
      label: "stays active",
      createdAt: active.record.createdAt,
      // Not durable: a restored token has not been used yet, as far as Redis knows.
      lastUsedAt: null,
      revokedAt: null,
    });
    const found = await tokens.find(doomed.token);
    expect(found).toMatchObject({ id: doomed.record.id, org: "acme", revokedAt: revoked?.revokedAt });
    expect((await tokens.find(other.token))?.org).toBe("globex");
    expect((await tokens.list("acme")).map((t) => [t.id, t.revokedAt !== null])).toEqual([
      [active.record.id, false],
      [doomed.record.id, true],
    ]);
    // The secret is nowhere in Redis, as before the loss.
    for (const key of await redis.keys(`${keyspace.prefix}:*`)) {
      expect(JSON.stringify(await redis.hgetall(key))).not.toContain(active.token);
    }

    // Idempotent, keeps last_used_at, and never un-revokes: a token revoked in Redis alone (as a
    // revoke whose Kafka send failed leaves it) stays revoked although its record is active.
    const usedAt = new Date("2026-03-04T05:06:07.000Z");
    await tokens.touch(active.token, usedAt);
    expect(await tokens.revoke("globex", other.record.id)).toBe(true);
    expect(await restoreTokens({ kafka, topic: tokensTopic, tokens, logger })).toEqual({ restored: 3 });
    expect((await tokens.find(active.token))?.lastUsedAt).toBe(usedAt.toISOString());
    expect((await tokens.find(active.token))?.revokedAt).toBeNull();
    expect((await tokens.find(other.token))?.revokedAt).not.toBeNull();
    expect((await tokens.find(doomed.token))?.revokedAt).toBe(revoked?.revokedAt);
  });

  it("creates the tokens topic compacted and the recordings topic kept forever", async () => {
    const { names, tokensTopic } = await isolatedTokenTopics();
    expect(await topicConfig(tokensTopic, "cleanup.policy")).toBe("compact");
    expect(await topicConfig(names.topic, "retention.ms")).toBe("-1");
  });

  it("skips records that do not decode and keys whose latest record is a tombstone", async () => {
    const { tokensTopic, records, keyspace, tokens } = await isolatedTokenTopics();
    const kept = await createToken({ tokens, records }, "acme", "kept");
    const gone = await createToken({ tokens, records }, "acme", "tombstoned");
    const raw = kafka.producer();
    await raw.connect();
    onTestFinished(() => raw.disconnect());
    await raw.send({
      topic: tokensTopic,
      messages: [
        { key: hashToken(gone.token), value: null },
        { key: "not-a-hash", value: "{}" },
        { key: hashToken("sk-vu-bad-json"), value: "{bad" },
        { key: hashToken("sk-vu-bad-utf8"), value: Buffer.from([0xc3, 0x28]) },
        { key: hashToken("sk-vu-wrong-types"), value: JSON.stringify({ id: 1, org: [], label: null }) },
      ],
    });
    await loseRedis(keyspace);
    expect(await restoreTokens({ kafka, topic: tokensTopic, tokens, logger })).toEqual({ restored: 1 });
    expect((await tokens.find(kept.token))?.label).toBe("kept");
    expect(await tokens.find(gone.token)).toBeNull();
    expect(await redis.keys(`${keyspace.prefix}:*`)).toHaveLength(2);
  });

  it("restores nothing from a topic that does not exist or holds nothing", async () => {
    const { tokensTopic, tokens } = await isolatedTokenTopics();
    expect(await restoreTokens({ kafka, topic: tokensTopic, tokens, logger })).toEqual({ restored: 0 });
    expect(await restoreTokens({ kafka, topic: `${tokensTopic}.missing`, tokens, logger })).toEqual({
      restored: 0,
    });
  });
});
