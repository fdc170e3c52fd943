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
function fakes(options: { kafkaFails?: boolean; redisFails?: boolean } = {}) {
  const log: string[] = [];
  const sent: Array<{ hash: string; record: DurableTokenRecord }> = [];
  const stored = new Map<string, TokenRecord>();
  const deps: TokenCommandDeps = {
    now: () => new Date("2026-05-06T07:08:09.000Z"),
    records: {
      async send(hash, record) {
        log.push(`kafka ${record.revokedAt === null ? "active" : "revoked"}`);
        if (options.kafkaFails) throw new Error("broker unreachable");
        sent.push({ hash, record });
      },
    },
    tokens: {
      async restore(hash, record) {
        log.push("redis restore");
        if (options.redisFails) throw new Error("redis unreachable");
        stored.set(hash, { ...record, lastUsedAt: null });
      },
      async revokeRecord(org, id) {
        log.push("redis revoke");
        for (const [hash, record] of stored) {
          if (record.org === org && record.id === id) {
            const revoked = { ...record, revokedAt: record.revokedAt ?? "2026-05-06T07:08:09.000Z" };
            stored.set(hash, revoked);
            return { hash, record: revoked };
          }
        }
        return null;
      },
    },
  };
  return { deps, log, sent, stored };
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
  it("revokes in Redis first, then sends the revoked record", async () => {
    const { deps, log, sent } = fakes();
    const { token, record } = await createToken(deps, "acme", "ci");
    const revoked = await revokeToken(deps, "acme", record.id);
    expect(revoked?.revokedAt).toBe("2026-05-06T07:08:09.000Z");
    expect(log).toEqual(["kafka active", "redis restore", "redis revoke", "kafka revoked"]);
    expect(sent[1]).toEqual({
      hash: hashToken(token),
      record: {
        id: record.id,
        org: "acme",
        label: "ci",
        createdAt: record.createdAt,
        revokedAt: revoked?.revokedAt,
      },
    });
    expect(await revokeToken(deps, "globex", record.id)).toBeNull();
  });

  it("says the revocation is not durable yet when Kafka fails, and a retry sends the same record", async () => {
    const failing = fakes();
    const { record } = await createToken(failing.deps, "acme", "ci");
    const broken: TokenCommandDeps = {
      ...failing.deps,
      records: {
        send: async () => {
          throw new Error("broker unreachable");
        },
      },
    };
    await expect(revokeToken(broken, "acme", record.id)).rejects.toThrow(
      /revoked in Redis.*run the revoke again/s,
    );
    expect(await revokeToken(failing.deps, "acme", record.id)).toMatchObject({
      revokedAt: "2026-05-06T07:08:09.000Z",
    });
    expect(failing.sent.at(-1)?.record.revokedAt).toBe("2026-05-06T07:08:09.000Z");
  });
});

describe("tokensCliEnvSchema", () => {
  it("defaults to the local stack and the tokens topic, and reads a broker list", () => {
    expect(tokensCliEnvSchema.parse({})).toEqual({
      REDIS_URL: "redis://127.0.0.1:6379",
      REDIS_PREFIX: "vu",
      KAFKA_BROKERS: ["localhost:9092"],
      TOKENS_TOPIC: "usage-stats.tokens",
    });
    expect(tokensCliEnvSchema.parse({ KAFKA_BROKERS: "a:1, b:2", TOKENS_TOPIC: "t" })).toMatchObject({
      KAFKA_BROKERS: ["a:1", "b:2"],
      TOKENS_TOPIC: "t",
    });
    expect(() => tokensCliEnvSchema.parse({ KAFKA_BROKERS: " , " })).toThrow();
  });
});
