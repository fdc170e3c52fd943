import { redisTargets } from "@vu/infra";
import { recording, uniquePrefix } from "@vu/testkit";
import { useRedisTarget } from "@vu/testkit/redis";
import { DAY_MS } from "@vu/time-buckets";
import { describe, expect, it } from "vitest";
import { createKeyspace } from "../format/keyspace";
import type { RedisClient } from "../redis/redisClient";
import { createRollupWriter } from "./rollupWriter";

type ApplyCall = RedisClient["vuApplyBatches"];

describe.each(redisTargets())("a writer's calls in flight, on $name", (target) => {
  let redis: RedisClient;
  useRedisTarget(target, (client) => {
    redis = client;
  });

  it("sends at most its window of script calls at once, and every organization is counted", async () => {
    const nowMs = Date.parse("2026-11-22T12:00:00Z");
    const keyspace = createKeyspace({ prefix: uniquePrefix() });
    const writer = createRollupWriter({
      redis,
      keyspace,
      dedupeWindowMs: 7 * DAY_MS,
      now: () => nowMs,
      callsInFlight: 2,
    });
    // Counted at the client: what Redis has been sent and not yet answered.
    const original = redis.vuApplyBatches;
    const send: ApplyCall = original.bind(redis);
    let open = 0;
    let most = 0;
    const counting = ((...args: Parameters<ApplyCall>) => {
      open++;
      most = Math.max(most, open);
      return send(...args).finally(() => open--);
    }) as ApplyCall;
    Object.assign(redis, { vuApplyBatches: counting });
    try {
      const orgs = Array.from({ length: 7 }, (_, i) => `org-${i}`);
      const applying = orgs.map((org, i) =>
        writer.applyPrepared(
          1,
          writer.prepare(
            org,
            Array.from({ length: i + 1 }, (_, n) => recording(`${org}-${n}`, "2026-11-22T10:00:00Z")),
          ),
        ),
      );
      // The first two went out before applyPrepared returned; the rest wait for them.
      expect(open).toBe(2);
      const results = await Promise.all(applying);
      expect(most).toBe(2);
      expect(results.map((r) => r.counted)).toEqual(orgs.map((_, i) => i + 1));
    } finally {
      Object.assign(redis, { vuApplyBatches: original });
    }
  });
});
