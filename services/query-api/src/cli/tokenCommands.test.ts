import type { DurableTokenRecord } from "@vu/events";
import { hashToken, looksLikeToken, type TokenRecord } from "@vu/store";
import { describe, expect, it } from "vitest";
import {
  createToken,
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
