import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { type RedisHealthSample, registerRedisMetrics } from "./redisMetrics";

function metric(text: string, name: string): string | undefined {
  return new RegExp(`^${name} (\\S+)$`, "m").exec(text)?.[1];
}

describe("registerRedisMetrics", () => {
  it("samples Redis once per scrape for all three gauges", async () => {
    const registry = new Registry();
    let samples = 0;
    let next: RedisHealthSample = { ok: true, usedMemoryBytes: 1_234_567, memoryFillRatio: 0.25 };
    registerRedisMetrics(registry, async () => {
      samples += 1;
      return next;
    });
    const first = await registry.metrics();
    expect(metric(first, "vu_redis_used_memory_bytes")).toBe("1234567");
    expect(metric(first, "vu_redis_memory_fill_ratio")).toBe("0.25");
    expect(metric(first, "vu_redis_healthy")).toBe("1");
    expect(samples).toBe(1);

    next = { ok: false, usedMemoryBytes: 2_000 };
    const second = await registry.metrics();
    expect(metric(second, "vu_redis_used_memory_bytes")).toBe("2000");
    // No maxmemory: no ratio, rather than 0 (an empty Redis).
    expect(metric(second, "vu_redis_memory_fill_ratio")).toMatch(/^nan$/i);
    expect(metric(second, "vu_redis_healthy")).toBe("0");
    expect(samples).toBe(2);
  });

  it("reports unknown memory as NaN, never 0, and a failing sample as unhealthy", async () => {
    const registry = new Registry();
    registerRedisMetrics(registry, async () => {
      throw new Error("connection refused");
    });
    const text = await registry.metrics();
    // prom-client writes "Nan"; Prometheus reads NaN case-insensitively.
    expect(metric(text, "vu_redis_used_memory_bytes")).toMatch(/^nan$/i);
    expect(metric(text, "vu_redis_memory_fill_ratio")).toMatch(/^nan$/i);
    expect(metric(text, "vu_redis_healthy")).toBe("0");
  });
});
