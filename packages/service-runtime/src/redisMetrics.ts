import { Gauge, type Registry } from "prom-client";

/** What the gauges read: `redisHealth(redis)` of @vu/store returns it. */
export interface RedisHealthSample {
  ok: boolean;
  usedMemoryBytes: number | undefined;
  /** `used_memory / maxmemory` of the fullest node with a limit; undefined without one. */
  memoryFillRatio?: number | undefined;
}

/**
 * `vu_redis_used_memory_bytes` (INFO memory, summed over masters), `vu_redis_memory_fill_ratio`
 * (the fullest node against its `maxmemory`) and `vu_redis_healthy` (1 when every node answers
 * with `noeviction`, known, and has evicted nothing: `redisHealth`), sampled on each scrape so they
 * are never stale.
 * Unknown memory (Redis unreachable, or no `maxmemory` for the ratio) is NaN, not 0, which would
 * read as an empty Redis.
 * Takes the sampling function rather than a client: this package does not depend on the store.
 */
export function registerRedisMetrics(registry: Registry, sample: () => Promise<RedisHealthSample>): void {
  let pending: Promise<RedisHealthSample> | undefined;
  // Both gauges are collected on the same scrape: one health check serves both.
  const sampleOnce = () => {
    pending ??= sample()
      .catch((): RedisHealthSample => ({ ok: false, usedMemoryBytes: undefined }))
      .finally(() => {
        pending = undefined;
      });
    return pending;
  };
  new Gauge({
    name: "vu_redis_used_memory_bytes",
    help: "Memory Redis reports in use (INFO memory used_memory; summed over cluster masters)",
    registers: [registry],
    // API processes of one cluster see the same Redis: their samples are not added up.
    aggregator: "max",
    async collect() {
      const { usedMemoryBytes } = await sampleOnce();
      this.set(usedMemoryBytes ?? Number.NaN);
    },
  });
  new Gauge({
    name: "vu_redis_memory_fill_ratio",
    help: "used_memory / maxmemory of the fullest Redis node that has a maxmemory (every master of a cluster); NaN without a limit",
    registers: [registry],
    aggregator: "max",
    async collect() {
      const { memoryFillRatio } = await sampleOnce();
      this.set(memoryFillRatio ?? Number.NaN);
    },
  });
  new Gauge({
    name: "vu_redis_healthy",
    help: "1 when every Redis node answers with maxmemory-policy noeviction (known from CONFIG or INFO) and none has evicted a key, else 0",
    registers: [registry],
    aggregator: "min",
    async collect() {
      this.set((await sampleOnce()).ok ? 1 : 0);
    },
  });
}
