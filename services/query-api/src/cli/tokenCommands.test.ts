import {
  createTokenRecordSigner,
  type DurableTokenRecord,
  encodeTokenRecord,
  type TokenTopicMessage,
  verifyTokenRecordMessage,
} from "@vu/events";
import { hashToken, looksLikeToken, type TokenRecord } from "@vu/store";
import { describe, expect, it } from "vitest";
import {
  createToken,
  type ResignDeps,
  resignTokens,
  revokeToken,
  type TokenCommandDeps,
  TokenCommandError,
  tokensCliEnvSchema,
} from "./tokenCommands";

/** What each side saw, in order: the point of these tests is which side is written first. */
function fakes(options: { kafkaFails?: boolean; redisFails?: boolean; redisUnreadable?: boolean } = {}) {
  const log: string[] = [];
  const sent: Array<{ hash: string; record: DurableTokenRecord }> = [];
  const stored = new Map<string, TokenRecord>();
  /** The topic's latest record per hash. */
  const topic = new Map<string, DurableTokenRecord>();
  const deps: TokenCommandDeps = {
    now: () => new Date("2026-05-06T07:08:09.000Z"),
    records: {
      async send(hash, record) {
        log.push(`kafka ${record.revokedAt === null ? "active" : "revoked"}`);
        if (options.kafkaFails) throw new Error("broker unreachable");
        sent.push({ hash, record });
        topic.set(hash, record);
      },
    },
    tokens: {
      async restore(hash, record) {
        log.push("redis restore");
        if (options.redisFails) throw new Error("redis unreachable");
        const before = stored.get(hash);
        stored.set(hash, {
          ...record,
          revokedAt: before?.revokedAt ?? record.revokedAt,
          lastUsedAt: before?.lastUsedAt ?? null,
        });
      },
      async recordById(org, id) {
        log.push("redis lookup");
        if (options.redisUnreadable) throw new Error("redis unreachable");
        for (const [hash, record] of stored) {
          if (record.org === org && record.id === id) return { hash, record };
        }
        return null;
      },
    },
    async findInTopic(org, id) {
      log.push("topic lookup");
      for (const [hash, record] of topic) {
        if (record.org === org && record.id === id) return { hash, record };
      }
      return null;
    },
  };
  return { deps, log, sent, stored, topic };
}

describe("createToken", () => {
  it("writes the record to Kafka first, then Redis, and never sends the secret", async () => {
    const { deps, log, sent, stored } = fakes();
    const { token, record } = await createToken(deps, "acme", "ci");
    expect(looksLikeToken(token)).toBe(true);
    expect(log).toEqual(["kafka active", "redis restore"]);
    expect(sent).toEqual([
      {
        hash: hashToken(token),
        record: {
          id: record.id,
          org: "acme",
          label: "ci",
          createdAt: "2026-05-06T07:08:09.000Z",
          revokedAt: null,
        },
      },
    ]);
    expect(JSON.stringify(sent)).not.toContain(token);
    expect(stored.get(hashToken(token))).toEqual(record);
  });

  it("writes nothing to Redis when Kafka does not take the record", async () => {
    const { deps, log, stored } = fakes({ kafkaFails: true });
    await expect(createToken(deps, "acme", "ci")).rejects.toThrow(TokenCommandError);
    await expect(createToken(deps, "acme", "ci")).rejects.toThrow(/nothing was created/);
    expect(log).toEqual(["kafka active", "kafka active"]);
    expect(stored.size).toBe(0);
  });

  it("revokes the record in Kafka when Redis fails after it, and shows no token", async () => {
    const { deps, log, sent } = fakes({ redisFails: true });
    await expect(createToken(deps, "acme", "ci")).rejects.toThrow(/could not be stored in Redis/);
    expect(log).toEqual(["kafka active", "redis restore", "kafka revoked"]);
    expect(sent[1]?.hash).toBe(sent[0]?.hash);
  });
});

describe("revokeToken", () => {
  it("finds the token in Redis, sends the revoked record, then revokes it in Redis", async () => {
    const { deps, log, sent, stored } = fakes();
    const { token, record } = await createToken(deps, "acme", "ci");
    stored.set(hashToken(token), { ...record, lastUsedAt: "2026-05-01T00:00:00.000Z" });
    log.length = 0;
    const revoked = await revokeToken(deps, "acme", record.id);
    expect(revoked).toEqual({
      ...record,
      revokedAt: "2026-05-06T07:08:09.000Z",
      lastUsedAt: "2026-05-01T00:00:00.000Z",
    });
    expect(log).toEqual(["redis lookup", "kafka revoked", "redis restore"]);
    expect(sent[1]).toEqual({
      hash: hashToken(token),
      record: {
        id: record.id,
        org: "acme",
        label: "ci",
        createdAt: record.createdAt,
        revokedAt: "2026-05-06T07:08:09.000Z",
      },
    });
    expect(stored.get(hashToken(token))?.revokedAt).toBe("2026-05-06T07:08:09.000Z");
  });

  it("revokes a token Redis does not have (it lost its data) by its id and organization, topic first", async () => {
    const { deps, log, sent, stored } = fakes();
    const { token, record } = await createToken(deps, "acme", "ci");
    stored.clear();
    log.length = 0;
    const revoked = await revokeToken(deps, "acme", record.id);
    expect(revoked).toMatchObject({ id: record.id, org: "acme", revokedAt: "2026-05-06T07:08:09.000Z" });
    expect(log).toEqual(["redis lookup", "topic lookup", "kafka revoked", "redis restore"]);
    expect(sent.at(-1)?.hash).toBe(hashToken(token));
    expect(stored.get(hashToken(token))?.revokedAt).toBe("2026-05-06T07:08:09.000Z");
  });

  it("finds the token in the topic when Redis cannot be read, and says Redis does not have the revocation yet", async () => {
    const { deps, log, topic } = fakes({ redisUnreadable: true, redisFails: true });
    const { hash, record } = {
      hash: "a".repeat(64),
      record: { id: "t1", org: "acme", label: "", createdAt: "2026-01-01T00:00:00.000Z", revokedAt: null },
    };
    topic.set(hash, record);
    await expect(revokeToken(deps, "acme", "t1")).rejects.toThrow(
      /token t1 is revoked in the tokens topic.*Redis did not take it.*run the revoke again/s,
    );
    expect(log).toEqual(["redis lookup", "topic lookup", "kafka revoked", "redis restore"]);
    expect(topic.get(hash)?.revokedAt).toBe("2026-05-06T07:08:09.000Z");
  });

  it("is null when neither Redis nor the topic has the organization's token", async () => {
    const { deps, log } = fakes();
    const { record } = await createToken(deps, "acme", "ci");
    log.length = 0;
    expect(await revokeToken(deps, "globex", record.id)).toBeNull();
    expect(await revokeToken(deps, "acme", "no-such-id")).toBeNull();
    expect(log).toEqual(["redis lookup", "topic lookup", "redis lookup", "topic lookup"]);
  });

  it("changes nothing when Kafka does not take the revocation, and a retry sends the first time", async () => {
    const failing = fakes();
    const { token, record } = await createToken(failing.deps, "acme", "ci");
    const broken: TokenCommandDeps = {
      ...failing.deps,
      records: {
        send: async () => {
          throw new Error("broker unreachable");
        },
      },
    };
    await expect(revokeToken(broken, "acme", record.id)).rejects.toThrow(
      /tokens topic did not take the revocation.*nothing was changed, run the revoke again/s,
    );
    expect(failing.stored.get(hashToken(token))?.revokedAt).toBeNull();
    expect(await revokeToken(failing.deps, "acme", record.id)).toMatchObject({
      revokedAt: "2026-05-06T07:08:09.000Z",
    });
    const later = { ...failing.deps, now: () => new Date("2026-06-01T00:00:00.000Z") };
    expect(await revokeToken(later, "acme", record.id)).toMatchObject({
      revokedAt: "2026-05-06T07:08:09.000Z",
    });
    expect(failing.sent.at(-1)?.record.revokedAt).toBe("2026-05-06T07:08:09.000Z");
  });

  it("says so when the topic cannot be read for a token Redis does not have", async () => {
    const { deps } = fakes();
    const broken: TokenCommandDeps = {
      ...deps,
      findInTopic: async () => {
        throw new Error("broker unreachable");
      },
    };
    await expect(revokeToken(broken, "acme", "t1")).rejects.toThrow(
      /token t1 is not in Redis and the tokens topic could not be read.*nothing was changed/s,
    );
  });
});

describe("tokensCliEnvSchema", () => {
  const TOKENS_SIGNING_KEY = "9c1d7e2f4a6b8c0d1e3f5a7b9c2d4e6f";

  it("defaults to the local stack and the tokens topic, and reads a broker list", () => {
    expect(tokensCliEnvSchema.parse({ TOKENS_SIGNING_KEY })).toEqual({
      REDIS_URL: "redis://127.0.0.1:6379",
      REDIS_PREFIX: "vu",
      KAFKA_BROKERS: ["localhost:9092"],
      KAFKA_SSL: false,
      TOKENS_TOPIC: "usage-stats.tokens",
      TOKENS_SIGNING_KEY,
      TOKENS_SIGNING_KEYS_PREVIOUS: [],
    });
    expect(
      tokensCliEnvSchema.parse({ KAFKA_BROKERS: "a:1, b:2", TOKENS_TOPIC: "t", TOKENS_SIGNING_KEY }),
    ).toMatchObject({
      KAFKA_BROKERS: ["a:1", "b:2"],
      TOKENS_TOPIC: "t",
    });
    expect(() => tokensCliEnvSchema.parse({ KAFKA_BROKERS: " , ", TOKENS_SIGNING_KEY })).toThrow();
  });

  it("requires a signing key that is not a placeholder", () => {
    expect(() => tokensCliEnvSchema.parse({})).toThrow(/is required/);
    expect(() => tokensCliEnvSchema.parse({ TOKENS_SIGNING_KEY: "change-me" })).toThrow(/at least 32/);
  });
});

describe("resignTokens", () => {
  const CURRENT = "0f1e2d3c4b5a69788796a5b4c3d2e1f0aa";
  const PREVIOUS = "1a2b3c4d5e6f708192a3b4c5d6e7f8091b";
  const signer = createTokenRecordSigner({ current: CURRENT, previous: [PREVIOUS] });
  const previousSigner = createTokenRecordSigner({ current: PREVIOUS });

  const record = (id: string, org: string, revokedAt: string | null = null): DurableTokenRecord => ({
    id,
    org,
    label: `label of ${id}`,
    createdAt: "2026-01-02T03:04:05.000Z",
    revokedAt,
  });
  /** An unsigned value, as a tokens CLI that did not sign wrote it: the same JSON, without `sig`. */
  const unsignedValue = (r: DurableTokenRecord) =>
    JSON.stringify({
      id: r.id,
      org: r.org,
      label: r.label,
      created_at: r.createdAt,
      revoked_at: r.revokedAt,
    });

  /**
   * A tokens topic (partitions of messages, a producer that signs with `signer`'s key) and a Redis
   * of token records. `onSend` runs before a record is appended, as another command would.
   */
  function world(options: { partitions?: number; topicExists?: boolean } = {}) {
    const log: string[] = [];
    const partitions: TokenTopicMessage[][] = Array.from({ length: options.partitions ?? 2 }, () => []);
    const partitionOf = (hash: string) => Number.parseInt(hash.slice(0, 8), 16) % partitions.length;
    const append = (hash: string, value: string | null, partition = partitionOf(hash)) => {
      const messages = partitions[partition] as TokenTopicMessage[];
      messages.push({
        partition,
        offset: String(messages.length),
        key: Buffer.from(hash),
        value: value === null ? null : Buffer.from(value),
      });
    };
    const redis = new Map<string, TokenRecord | null>();
    const hooks: { onSend?: (hash: string, r: DurableTokenRecord) => void; kafkaFailsAfter?: number } = {};
    let sends = 0;
    const deps: ResignDeps = {
      signer,
      records: {
        async send(hash, r) {
          log.push(`kafka ${r.id} ${r.revokedAt === null ? "active" : "revoked"}`);
          if (hooks.kafkaFailsAfter !== undefined && sends >= hooks.kafkaFailsAfter) {
            throw new Error("broker unreachable");
          }
          sends += 1;
          hooks.onSend?.(hash, r);
          append(hash, encodeTokenRecord(r, signer.sign(hash, r)));
        },
      },
      tokens: {
        async *scanRecords() {
          for (const [hash, r] of redis) yield { hash, record: r };
        },
        async restore(hash, r) {
          log.push(`redis ${r.id} ${r.revokedAt === null ? "active" : "revoked"}`);
          const before = redis.get(hash);
          redis.set(hash, { ...r, revokedAt: before?.revokedAt ?? r.revokedAt, lastUsedAt: null });
        },
      },
      async readTopic(from, onMessage) {
        log.push(from === undefined ? "read topic" : "read topic again");
        if (options.topicExists === false) return null;
        const ends = new Map(partitions.map((messages, p) => [p, BigInt(messages.length)]));
        for (const [p, messages] of partitions.entries()) {
          for (const m of messages.slice(Number(from?.get(p) ?? 0n), Number(ends.get(p)))) onMessage(m);
        }
        return ends;
      },
    };
    /** A token in Redis and its unsigned record in the topic, as the CLI before signing made it. */
    const oldToken = (id: string, org: string, revokedAt: string | null = null) => {
      const hash = hashToken(`sk-vu-${id}-${org}`);
      const r = record(id, org, revokedAt);
      redis.set(hash, { ...r, lastUsedAt: "2026-02-01T00:00:00.000Z" });
      append(hash, unsignedValue(r));
      return { hash, record: r };
    };
    /** What a restore would take for `hash`: its latest record per partition that verifies. */
    const restorable = (hash: string) =>
      partitions
        .map((messages) => messages.filter((m) => m.key?.toString() === hash).at(-1))
        .filter((m) => m !== undefined)
        .map((m) => verifyTokenRecordMessage(signer, m.key, m.value))
        .map((v) => (v.ok ? v.record : null));
    return { deps, log, partitions, append, redis, hooks, oldToken, restorable };
  }

  it("signs every token Redis holds, of every organization, keeping revocations; a second run signs none", async () => {
    const w = world();
    const a = w.oldToken("a", "acme");
    const b = w.oldToken("b", "acme", "2026-03-01T00:00:00.000Z");
    const c = w.oldToken("c", "globex");
    // What the revocation watch writes for a token Redis lost: no token.
    w.redis.set("f".repeat(64), null);

    expect(await resignTokens(w.deps)).toEqual({
      signed: 3,
      revoked: 1,
      skipped: 0,
      revokedFromTopic: [],
      unsignedRevocations: [],
      revokedMeanwhile: 0,
      incomplete: 1,
      invalid: [],
      unverifiedNotInRedis: 0,
    });
    for (const t of [a, b, c]) expect(w.restorable(t.hash)).toEqual([t.record]);
    // The secret is never sent, nor the last use.
    expect(JSON.stringify(w.partitions)).not.toContain("last");

    w.log.length = 0;
    expect(await resignTokens(w.deps)).toMatchObject({ signed: 0, skipped: 3, incomplete: 1 });
    expect(w.log).toEqual(["read topic", "read topic again"]);
  });

  it("signs again a token whose signed record is followed by another message, or signed with a previous key", async () => {
    const w = world();
    const settled = w.oldToken("settled", "acme");
    const tombstoned = w.oldToken("tombstoned", "acme");
    const overwritten = w.oldToken("overwritten", "acme");
    const rotated = w.oldToken("rotated", "acme");
    const sign = (hash: string, r: DurableTokenRecord, by = signer) => encodeTokenRecord(r, by.sign(hash, r));
    w.append(settled.hash, sign(settled.hash, settled.record));
    w.append(tombstoned.hash, sign(tombstoned.hash, tombstoned.record));
    w.append(tombstoned.hash, null);
    w.append(overwritten.hash, sign(overwritten.hash, overwritten.record));
    w.append(overwritten.hash, unsignedValue(overwritten.record));
    w.append(rotated.hash, sign(rotated.hash, rotated.record, previousSigner));

    expect(await resignTokens(w.deps)).toMatchObject({ signed: 3, skipped: 1 });
    expect(w.log.filter((l) => l.startsWith("kafka"))).toEqual([
      "kafka tombstoned active",
      "kafka overwritten active",
      "kafka rotated active",
    ]);
    for (const t of [tombstoned, overwritten, rotated]) expect(w.restorable(t.hash)).toEqual([t.record]);
  });

  it("takes a signed revocation only the topic has, and reports an unsigned one without applying it", async () => {
    const w = world();
    const rolledBack = w.oldToken("rolled-back", "acme");
    const signedRevocation = { ...rolledBack.record, revokedAt: "2026-04-01T00:00:00.000Z" };
    w.append(
      rolledBack.hash,
      encodeTokenRecord(signedRevocation, signer.sign(rolledBack.hash, signedRevocation)),
    );
    // Anyone who may produce to the topic can write this: it must not revoke a token by itself.
    const forged = w.oldToken("forged", "acme");
    w.append(forged.hash, unsignedValue({ ...forged.record, revokedAt: "2026-04-02T00:00:00.000Z" }));

    const result = await resignTokens(w.deps);
    // The topic's latest record of rolled-back is already the signed revocation: nothing to write.
    expect(result).toMatchObject({
      signed: 1,
      skipped: 1,
      revoked: 0,
      revokedFromTopic: [{ id: "rolled-back", org: "acme", revokedAt: "2026-04-01T00:00:00.000Z" }],
      unsignedRevocations: [{ id: "forged", org: "acme", revokedAt: "2026-04-02T00:00:00.000Z" }],
    });
    expect(w.redis.get(rolledBack.hash)?.revokedAt).toBe("2026-04-01T00:00:00.000Z");
    expect(w.redis.get(forged.hash)?.revokedAt).toBeNull();
    expect(w.restorable(forged.hash)).toEqual([forged.record]);
  });

  it("with trustUnsignedRevocations, keeps an unsigned revocation only the topic has, topic first, then Redis", async () => {
    const w = world();
    // Revoked by the CLI before signing (Redis, then an unsigned record); Redis then went back to
    // a state before it.
    const rolledBack = w.oldToken("rolled-back", "acme");
    w.append(rolledBack.hash, unsignedValue({ ...rolledBack.record, revokedAt: "2026-04-01T00:00:00.000Z" }));
    // A revocation of the same hash for another id or organization names another token.
    const other = w.oldToken("other", "acme");
    w.append(
      other.hash,
      unsignedValue({ ...other.record, org: "globex", revokedAt: "2026-04-01T00:00:00.000Z" }),
    );

    const result = await resignTokens({ ...w.deps, trustUnsignedRevocations: true });
    expect(result).toMatchObject({
      signed: 2,
      revoked: 1,
      revokedFromTopic: [{ id: "rolled-back", org: "acme", revokedAt: "2026-04-01T00:00:00.000Z" }],
      unsignedRevocations: [],
    });
    expect(w.log).toEqual([
      "read topic",
      "kafka rolled-back revoked",
      "redis rolled-back revoked",
      "kafka other active",
      "read topic again",
    ]);
    expect(w.redis.get(rolledBack.hash)?.revokedAt).toBe("2026-04-01T00:00:00.000Z");
    expect(w.restorable(rolledBack.hash)).toEqual([
      { ...rolledBack.record, revokedAt: "2026-04-01T00:00:00.000Z" },
    ]);
    expect(w.restorable(other.hash)).toEqual([other.record]);
  });

  it("signs again, revoked, a token revoked while it ran, whose revocation landed before its active record", async () => {
    const w = world();
    const raced = w.oldToken("raced", "acme");
    // `revoke` read Redis before this scanned it, and its record reaches the topic just before this one's.
    w.hooks.onSend = (hash, r) => {
      if (hash !== raced.hash || r.revokedAt !== null) return;
      const revoked = { ...r, revokedAt: "2026-05-06T07:08:09.000Z" };
      w.append(hash, encodeTokenRecord(revoked, signer.sign(hash, revoked)));
      w.redis.set(hash, { ...revoked, lastUsedAt: null });
    };
    expect(await resignTokens(w.deps)).toMatchObject({ signed: 1, revoked: 0, revokedMeanwhile: 1 });
    expect(w.log).toEqual([
      "read topic",
      "kafka raced active",
      "read topic again",
      "kafka raced revoked",
      "redis raced revoked",
    ]);
    expect(w.restorable(raced.hash)).toEqual([{ ...raced.record, revokedAt: "2026-05-06T07:08:09.000Z" }]);
  });

  it("does not sign a token no record can carry, and says so; signs the others", async () => {
    const w = world();
    const ok = w.oldToken("ok", "acme");
    const hash = hashToken("sk-vu-long-label");
    w.redis.set(hash, { ...record("long", "acme"), label: "x".repeat(1_001), lastUsedAt: null });
    const result = await resignTokens(w.deps);
    expect(result).toMatchObject({
      signed: 1,
      invalid: [{ id: "long", org: "acme", problem: expect.stringMatching(/label/) }],
    });
    expect(w.restorable(ok.hash)).toEqual([ok.record]);
    expect(w.restorable(hash)).toEqual([]);
  });

  it("counts the topic's tokens that Redis lacks and nothing vouches for, and signs none of them", async () => {
    const w = world();
    const lost = w.oldToken("lost", "acme");
    w.redis.delete(lost.hash);
    expect(await resignTokens(w.deps)).toMatchObject({ signed: 0, unverifiedNotInRedis: 1 });
    expect(w.log).toEqual(["read topic", "read topic again"]);
  });

  it("signs nothing without a tokens topic, and can be run again after Kafka failed half-way", async () => {
    await expect(resignTokens(world({ topicExists: false }).deps)).rejects.toThrow(
      /tokens topic does not exist.*nothing was signed/,
    );
    const w = world();
    const tokens = ["t1", "t2", "t3"].map((id) => w.oldToken(id, "acme"));
    w.hooks.kafkaFailsAfter = 1;
    await expect(resignTokens(w.deps)).rejects.toThrow(
      /tokens topic did not take the record of token t2 of acme.*1 token records were signed before it; run resign again/s,
    );
    delete w.hooks.kafkaFailsAfter;
    expect(await resignTokens(w.deps)).toMatchObject({ signed: 2, skipped: 1 });
    for (const t of tokens) expect(w.restorable(t.hash)).toEqual([t.record]);
  });

  it("counts a token once when SCAN returns its key twice", async () => {
    const w = world();
    const t = w.oldToken("twice", "acme");
    w.deps.tokens.scanRecords = async function* () {
      const r = w.redis.get(t.hash) ?? null;
      yield { hash: t.hash, record: r };
      yield { hash: t.hash, record: r };
    };
    expect(await resignTokens(w.deps)).toMatchObject({ signed: 1, skipped: 0 });
  });
});
