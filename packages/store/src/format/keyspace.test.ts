import { TIERS } from "@vu/time-buckets";
import { describe, expect, it } from "vitest";
import { createKeyspace } from "./keyspace";
import { PROJECTIONS } from "./projections";

describe("keyspace.classify", () => {
  const keyspace = createKeyspace({ prefix: "vu-test" });
  // Organization ids may hold colons and dots (docs/contract.md §1), never braces.
  const org = "acme:eu-1.combos";
  const at = Date.parse("2026-11-22T10:15:00Z");

  it("names every key the keyspace builds for what it is", () => {
    for (const tier of TIERS) {
      for (const projection of PROJECTIONS) {
        expect(keyspace.classify(keyspace.block(3, org, tier, at, projection))).toEqual({
          kind: "block",
          tier,
          projection,
        });
        // Every projection's key has its sketches beside it (docs/decisions/0029).
        expect(keyspace.classify(keyspace.sketches(keyspace.block(3, org, tier, at, projection)))).toEqual({
          kind: "sketch",
          tier,
        });
      }
    }
    // A block's keys: every place of its cells, and the sketches beside each.
    const blockKeys = keyspace.blockKeys(1, org, "hour", at);
    expect(blockKeys).toHaveLength(2 * (2 + PROJECTIONS.length));
    for (const projection of PROJECTIONS)
      expect(blockKeys).toContain(keyspace.sketches(keyspace.block(1, org, "hour", at, projection)));
    for (const tier of TIERS) {
      expect(keyspace.classify(keyspace.container(2, org, tier, at))).toEqual({ kind: "container", tier });
      expect(keyspace.classify(keyspace.keyed(2, org, tier, at))).toEqual({ kind: "keyed", tier });
    }
    expect(keyspace.classify(keyspace.combos(1, org))).toEqual({ kind: "combos" });
    expect(keyspace.classify(keyspace.extent(1, org))).toEqual({ kind: "extent" });
    expect(keyspace.classify(keyspace.dimension(1, org, "app_name"))).toEqual({ kind: "dimension" });
    expect(keyspace.classify(`${keyspace.orgBase(1, org)}seen:12345`)).toEqual({ kind: "seen" });
    expect(keyspace.classify(`${keyspace.orgBase(1, org)}seen:12345:all`)).toEqual({ kind: "seen" });
    expect(keyspace.classify(keyspace.token("ab12"))).toEqual({ kind: "token" });
    expect(keyspace.classify(keyspace.orgTokens(org))).toEqual({ kind: "token" });
    expect(keyspace.classify(`${keyspace.rateLimitPrefix()}tok`)).toEqual({ kind: "ratelimit" });
    expect(keyspace.classify(keyspace.generation())).toEqual({ kind: "generation" });
    expect(keyspace.classify(keyspace.log(2))).toEqual({ kind: "log" });
    expect(keyspace.classify(keyspace.shardWrites(2, 17))).toEqual({ kind: "shardWrites" });
    expect(keyspace.classify(keyspace.extent(2, "writes"))).toEqual({ kind: "extent" });
    expect(keyspace.shardWrites(2, 17)).toBe("vu-test:v9:g2:{s17}:writes");
    expect(keyspace.classify("vu-test:v3:something-else")).toEqual({ kind: "other" });
  });

  it("matches exactly its own keys with its SCAN pattern's prefix", () => {
    expect(keyspace.pattern()).toBe("vu-test:*");
    // Token records only: not the organizations' indexes (`…:tokens:{org}`) nor the rate limit.
    expect(keyspace.tokenPattern()).toBe("vu-test:v3:token:*");
    expect(keyspace.token("ab12").startsWith(keyspace.tokenPattern().slice(0, -1))).toBe(true);
    expect(keyspace.orgTokens(org).startsWith(keyspace.tokenPattern().slice(0, -1))).toBe(false);
    expect(keyspace.combos(1, org).startsWith("vu-test:")).toBe(true);
  });
});
