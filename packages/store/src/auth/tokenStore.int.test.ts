import { randomUUID } from "node:crypto";
import { redisTargets } from "@vu/infra";
import { useRedisTarget } from "@vu/testkit/redis";
import { describe, expect, it } from "vitest";
import { createKeyspace } from "../format/keyspace";
import type { RedisClient } from "../redis/redisClient";
import { createTokenStore, hashToken, mintToken, type TokenRecord } from "./tokenStore";

describe.each(redisTargets())("the token store on $name", (target) => {
  let redis: RedisClient;
  useRedisTarget(target, (client) => {
    redis = client;
  });

  it("scans every token of every organization, on every master, and nothing else", async () => {
    const keyspace = createKeyspace({ prefix: `test-${randomUUID()}` });
    const tokens = createTokenStore({ redis, keyspace });
    const made = new Map<string, TokenRecord>();
    // Token keys carry no hash tag: on a cluster they spread over every master.
    for (let i = 0; i < 300; i++) {
      const { hash, record } = mintToken(`org-${i % 7}`, `token ${i}`);
      const revoked = i % 5 === 0 ? { ...record, revokedAt: "2026-01-01T00:00:00.000Z" } : record;
      await tokens.restore(hash, revoked);
      made.set(hash, revoked);
    }
    // What the revocation watch writes for a token Redis lost: a key, no token.
    const lost = hashToken("sk-vu-lost");
    await tokens.reassertRevocation(lost, "2026-01-01T00:00:00.000Z");
    // Not token records: an index, a rate-limit counter, a key the pattern matches that is no
    // token's, another prefix's token.
    await redis.set(`${keyspace.rateLimitPrefix()}some-id`, "1");
    await redis.hset(keyspace.token("not-a-sha256"), { id: "x", org: "acme", created_at: "2026-01-01" });
    const other = createTokenStore({ redis, keyspace: createKeyspace({ prefix: `test-${randomUUID()}` }) });
    const foreign = mintToken("acme", "another prefix's");
    await other.restore(foreign.hash, foreign.record);

    if ("nodes" in redis) expect(redis.nodes("master").length).toBeGreaterThan(1);
    const seen = new Map<string, TokenRecord | null>();
    for await (const { hash, record } of tokens.scanRecords()) seen.set(hash, record);
    expect(seen.get(lost)).toBeNull();
    seen.delete(lost);
    expect(seen).toEqual(made);
  });
});
