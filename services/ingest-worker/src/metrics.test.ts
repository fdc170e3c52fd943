import { describe, expect, it } from "vitest";
import { createIngestMetrics, forgetLagOfOthers } from "./metrics";

const names = async (metrics: ReturnType<typeof createIngestMetrics>) =>
  (await metrics.registry.getMetricsAsJSON()).map((m) => m.name);

describe("createIngestMetrics", () => {
  it("registers the Redis gauges only when given a way to sample Redis", async () => {
    expect(await names(createIngestMetrics())).not.toContain("vu_redis_used_memory_bytes");
    const withRedis = createIngestMetrics({
      redisHealth: async () => ({ ok: true, usedMemoryBytes: 1_000, memoryFillRatio: 0.5 }),
    });
    expect(await names(withRedis)).toEqual(
      expect.arrayContaining([
        "vu_redis_used_memory_bytes",
        "vu_redis_memory_fill_ratio",
        "vu_redis_healthy",
      ]),
    );
  });
});

describe("forgetLagOfOthers", () => {
  it("drops the lag of partitions another worker took after a rebalance, and keeps the rest", async () => {
    const { lag } = createIngestMetrics();
    lag.set({ partition: "0" }, 5);
    lag.set({ partition: "1" }, 7);
    lag.set({ partition: "2" }, 9);
    await forgetLagOfOthers(lag, [1, 3]);
    const shown = (await lag.get()).values.map((v) => [v.labels.partition, v.value]);
    expect(shown).toEqual([["1", 7]]);
  });
});
