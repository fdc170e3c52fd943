// API tokens survive a Redis loss, and only the tokens CLI can make one: the CLI's code path writes
// Redis and the compacted tokens topic (records signed with TOKENS_SIGNING_KEY), the Redis keys are
// deleted, and `restoreTokens` brings the tokens back from Kafka alone, refusing every record it
// cannot verify. Revocations outlive Redis losing them, before or after they were made.
import { randomBytes } from "node:crypto";
import { createTokenRecordSigner, encodeTokenRecord, readTokenTopic } from "@vu/events";
import { waitFor } from "@vu/infra";
import { restoreTokens } from "@vu/ingest-worker";
import { createToken, revokeToken } from "@vu/query-api";
import { createLogger } from "@vu/service-runtime";
import { createKeyspace, createRedisClient, hashToken, type Keyspace, TokenConflictError } from "@vu/store";
import { counterTotal, isolatedNames, redisUrl } from "@vu/testkit";
import { startApiServer } from "@vu/testkit/api";
import { waitUntilViewCaughtUp } from "@vu/testkit/caughtUp";
import { testKafka } from "@vu/testkit/kafka";
import { durableTokens, testTokenSigner } from "@vu/testkit/tokens";
import { startInProcessWorker } from "@vu/testkit/worker";
import kafkajs from "kafkajs";
import { afterAll, describe, expect, it, onTestFinished } from "vitest";

// kafkajs is CommonJS, and Node's ESM loader cannot see this export by name.
const { ConfigResourceTypes } = kafkajs;

const redis = createRedisClient(redisUrl());
const kafka = testKafka();
const logger = createLogger("test-token-restore", "silent");
const signer = testTokenSigner();
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

/** Messages written with a plain Kafka client, as anyone who may produce to the topic can. */
async function produceRaw(
  topic: string,
  messages: Array<{ key: string | null; value: string | Buffer | null }>,
): Promise<void> {
  const raw = kafka.producer();
  await raw.connect();
  try {
    await raw.send({ topic, messages });
  } finally {
    await raw.disconnect();
  }
}

/** A made-up token and the JSON record a forger writes for it, unsigned, in `org`. */
function forgedToken(org: string) {
  const token = `sk-vu-${randomBytes(30).toString("hex").slice(0, 40)}`;
  const fields = { id: "forged", org, label: "", created_at: "2026-01-01T00:00:00.000Z", revoked_at: null };
  return { token, hash: hashToken(token), fields };
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

const restore = (topic: string, tokens: Parameters<typeof restoreTokens>[0]["tokens"]) =>
  restoreTokens({ kafka, topic, signer, tokens, logger });

describe("restoreTokens", () => {
  it("brings back active and revoked tokens after the Redis keys are lost", async () => {
    const { tokensTopic, deps, keyspace, tokens } = await isolatedTokenTopics();
    const active = await createToken(deps, "acme", "stays active");
    const doomed = await createToken(deps, "acme", "gets revoked");
    const other = await createToken(deps, "globex", "another org");
    const revoked = await revokeToken(deps, "acme", doomed.record.id);
    expect(revoked?.revokedAt).not.toBeNull();
    expect(await revokeToken(deps, "acme", other.record.id)).toBeNull();
    await tokens.touch(active.token, new Date());

    await loseRedis(keyspace);
    expect(await tokens.find(active.token)).toBeNull();

    expect(await restore(tokensTopic, tokens)).toEqual({ restored: 3, refused: 0, conflicts: 0 });
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

    // Idempotent, keeps last_used_at, and never un-revokes: a token revoked in Redis alone stays
    // revoked although its record is active.
    const usedAt = new Date("2026-03-04T05:06:07.000Z");
    await tokens.touch(active.token, usedAt);
    expect(await tokens.revoke("globex", other.record.id)).toBe(true);
    expect(await restore(tokensTopic, tokens)).toMatchObject({ restored: 3 });
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

  it("refuses and counts every record the tokens CLI did not sign: a forged token never reaches Redis", async () => {
    const { tokensTopic, deps, keyspace, tokens } = await isolatedTokenTopics();
    const victim = await createToken(deps, "victim", "the victim's own");
    const tombstoned = await createToken(deps, "acme", "tombstoned by a producer");
    const unsigned = forgedToken("victim");
    const otherKey = forgedToken("victim");
    const copiedSig = forgedToken("victim");
    const stranger = createTokenRecordSigner({ current: randomBytes(32).toString("hex") });
    const victimRecord = { ...victim.record, revokedAt: null };
    const victimSig = signer.sign(hashToken(victim.token), victimRecord);
    const asRecord = (f: ReturnType<typeof forgedToken>["fields"]) => ({
      id: f.id,
      org: f.org,
      label: f.label,
      createdAt: f.created_at,
      revokedAt: f.revoked_at,
    });
    await produceRaw(tokensTopic, [
      // A forged record: a made-up secret in the victim's organization, no signature.
      { key: unsigned.hash, value: JSON.stringify(unsigned.fields) },
      // Signed, with a key the worker does not hold.
      {
        key: otherKey.hash,
        value: encodeTokenRecord(
          asRecord(otherKey.fields),
          stranger.sign(otherKey.hash, asRecord(otherKey.fields)),
        ),
      },
      // The victim's genuine signature, on another key (the made-up token's hash).
      { key: copiedSig.hash, value: JSON.stringify({ ...copiedSig.fields, sig: victimSig }) },
      // The victim's genuine record, moved to another organization.
      {
        key: hashToken(victim.token),
        value: JSON.stringify({ ...JSON.parse(encodeTokenRecord(victimRecord, victimSig)), org: "attacker" }),
      },
      { key: hashToken(tombstoned.token), value: null },
      { key: "not-a-hash", value: "{}" },
      { key: hashToken("sk-vu-bad-json"), value: "{bad" },
      { key: hashToken("sk-vu-bad-utf8"), value: Buffer.from([0xc3, 0x28]) },
    ]);
    await loseRedis(keyspace);

    expect(await restore(tokensTopic, tokens)).toEqual({ restored: 2, refused: 8, conflicts: 0 });
    for (const forged of [unsigned, otherKey, copiedSig]) expect(await tokens.find(forged.token)).toBeNull();
    expect(await tokens.find(victim.token)).toMatchObject({ org: "victim", revokedAt: null });
    // A tombstone is not the CLI's either: the token's signed record stands.
    expect(await tokens.find(tombstoned.token)).toMatchObject({ org: "acme", revokedAt: null });
    expect((await tokens.list("victim")).map((t) => t.id)).toEqual([victim.record.id]);
    expect(await tokens.list("attacker")).toEqual([]);
  });

  it("never moves a token to another organization, even on a record signed with the key", async () => {
    const { tokensTopic, deps, tokens } = await isolatedTokenTopics();
    const { token, record } = await createToken(deps, "acme", "ci");
    const hash = hashToken(token);
    await expect(tokens.restore(hash, { ...record, org: "globex" })).rejects.toThrow(TokenConflictError);
    await expect(tokens.restore(hash, { ...record, id: "another-id" })).rejects.toThrow(TokenConflictError);
    // Only the holder of the key can make this record; it still does not move the token.
    await deps.records.send(hash, { ...record, org: "globex", revokedAt: null });
    expect(await restore(tokensTopic, tokens)).toEqual({ restored: 0, refused: 0, conflicts: 1 });
    expect(await tokens.find(token)).toMatchObject({ id: record.id, org: "acme", revokedAt: null });
    expect(await tokens.list("globex")).toEqual([]);
  });

  it("keeps a token revoked while Redis was empty revoked after the restore, and after a replayed record", async () => {
    const { tokensTopic, records, deps, keyspace, tokens } = await isolatedTokenTopics();
    const { token, record } = await createToken(deps, "acme", "revoked during the incident");
    const kept = await createToken(deps, "acme", "stays");
    const hash = hashToken(token);

    // The incident moment: Redis lost everything, and the worker has not restored the tokens yet.
    await loseRedis(keyspace);
    const revoked = await revokeToken(deps, "acme", record.id);
    expect(revoked).toMatchObject({ id: record.id, org: "acme", revokedAt: expect.any(String) });
    // Redis refuses it at once...
    expect((await tokens.find(token))?.revokedAt).toBe(revoked?.revokedAt);
    // ...and the next restore, from an empty Redis again, keeps it revoked.
    await loseRedis(keyspace);
    expect(await restore(tokensTopic, tokens)).toMatchObject({ restored: 2, refused: 0 });
    expect((await tokens.find(token))?.revokedAt).toBe(revoked?.revokedAt);
    expect((await tokens.find(kept.token))?.revokedAt).toBeNull();

    // The token's signed active record, appended again by a producer, does not bring it back.
    await records.send(hash, { ...record, revokedAt: null });
    await loseRedis(keyspace);
    await restore(tokensTopic, tokens);
    expect((await tokens.find(token))?.revokedAt).toBe(revoked?.revokedAt);

    // Revoking again keeps the first time; a token neither side has is still "no token".
    expect((await revokeToken(deps, "acme", record.id))?.revokedAt).toBe(revoked?.revokedAt);
    expect(await revokeToken(deps, "acme", "no-such-token")).toBeNull();
  });

  it("restores nothing from a topic that does not exist or holds nothing", async () => {
    const { tokensTopic, tokens } = await isolatedTokenTopics();
    const none = { restored: 0, refused: 0, conflicts: 0 };
    expect(await restore(tokensTopic, tokens)).toEqual(none);
    expect(await restore(`${tokensTopic}.missing`, tokens)).toEqual(none);
  });
});

describe("readTokenTopic", () => {
  it("reads only what was appended since the end a previous read returned", async () => {
    const { tokensTopic, deps } = await isolatedTokenTopics();
    const first = await createToken(deps, "acme", "first");
    const read = async (from?: Map<number, bigint>) => {
      const ids: string[] = [];
      const ends = await readTokenTopic({
        kafka,
        topic: tokensTopic,
        signer,
        ...(from === undefined ? {} : { from }),
        onRecord: (_hash, record) => ids.push(record.id),
        onRefused: () => undefined,
      });
      return { ids, ends: ends ?? new Map<number, bigint>() };
    };
    const all = await read();
    expect(all.ids).toEqual([first.record.id]);
    expect(await read(all.ends)).toEqual({ ids: [], ends: all.ends });

    const second = await createToken(deps, "acme", "second");
    const next = await read(all.ends);
    expect(next.ids).toEqual([second.record.id]);
    // An end past the partition's (the topic was made again) reads it from its start.
    expect((await read(new Map([[0, 1_000n]]))).ids).toEqual([first.record.id, second.record.id]);
    expect(
      await readTokenTopic({
        kafka,
        topic: `${tokensTopic}.missing`,
        signer,
        onRecord: () => undefined,
        onRefused: () => undefined,
      }),
    ).toBeNull();
  });
});

describe("the ingest worker", () => {
  it("refuses a forged token record in its automatic restore: the made-up token gets 401", async () => {
    const { names, tokensTopic, deps, keyspace, tokens } = await isolatedTokenTopics();
    const victim = await createToken(deps, "victim", "the victim's own");
    const forged = forgedToken("victim");
    await produceRaw(tokensTopic, [{ key: forged.hash, value: JSON.stringify(forged.fields) }]);
    await loseRedis(keyspace);

    const worker = await startInProcessWorker({ kafka, names, env: { TOKENS_TOPIC: tokensTopic } });
    onTestFinished(() => worker.stop());
    await waitUntilViewCaughtUp(kafka, names.topic, redis, names.prefix, 120_000);
    await waitFor(async () => (await tokens.find(victim.token)) !== null, {
      timeoutMs: 60_000,
      message: "the victim's token restored",
    });
    expect(await tokens.find(forged.token)).toBeNull();
    expect(await counterTotal(worker.metrics.tokenRecordsRefused)).toBeGreaterThanOrEqual(1);

    const api = await startApiServer({
      redisUrl: redisUrl(),
      prefix: names.prefix,
      nowMs: Date.now(),
      openEpoch: false,
    });
    onTestFinished(() => api.close());
    const summary = "/api/v1/stats/summary?start_date=2000-01-01";
    expect((await api.get(summary, victim.token)).status).toBe(200);
    expect((await api.get(summary, forged.token)).status).toBe(401);
  });

  it("revokes again a token that Redis shows active after going back to an older state", async () => {
    const { names, tokensTopic, deps, tokens } = await isolatedTokenTopics();
    const { token, record } = await createToken(deps, "acme", "revoked, then rolled back");
    const worker = await startInProcessWorker({
      kafka,
      names,
      env: { TOKENS_TOPIC: tokensTopic, TOKENS_REVOCATION_CHECK_MS: "200" },
    });
    onTestFinished(() => worker.stop());
    // The worker's own restore (when it opens the view's epoch) is over: only the watch is left.
    await waitUntilViewCaughtUp(kafka, names.topic, redis, names.prefix, 120_000);
    const revoked = await revokeToken(deps, "acme", record.id);
    expect(revoked?.revokedAt).toBeDefined();

    // Redis goes back to a state from before the revocation (a snapshot, a lagging replica), which
    // nothing else notices: the token is active there again.
    const key = createKeyspace({ prefix: names.prefix }).token(hashToken(token));
    const before = await counterTotal(worker.metrics.revocationsReasserted);
    await redis.hdel(key, "revoked_at");
    expect((await tokens.find(token))?.revokedAt).toBeNull();

    // Nothing but the worker's revocation watch writes this token after the rollback.
    await waitFor(
      async () =>
        (await tokens.find(token))?.revokedAt === revoked?.revokedAt &&
        (await counterTotal(worker.metrics.revocationsReasserted)) > before,
      { timeoutMs: 60_000, message: "the worker to revoke the token again" },
    );
  });
});
