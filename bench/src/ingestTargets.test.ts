import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { sizingRows } from "./ingestSizing";
import { ingestChecks } from "./ingestTargets";
import { type BenchResults, runsOf, type SizeResult } from "./results";
import {
  FRESHNESS_SUSTAIN_S,
  MAX_NEW_ORG_BYTES,
  MAX_STEADY_BYTES_PER_EVENT,
  MIN_INGEST_RATE,
  MIN_STEADY_INGEST_RATIO,
} from "./targetBounds";
import type { TargetCheck, TargetKind } from "./targetCheck";

const committed = JSON.parse(
  readFileSync(join(import.meta.dirname, "fixtures", "results-95441a2d.json"), "utf8"),
) as BenchResults;

const rate = (eventsPerSecond: number, seconds = 10) => ({
  events: eventsPerSecond * seconds,
  seconds,
  eventsPerSecond,
});

const cpu = (cores: Record<string, number>) => ({ seconds: 10, cores, machineCores: 2 });

/** One size of each shape: the single-org worker at `singleRate` with the CPU given, the multi-tenant one measured in full. */
function results(input: {
  singleRate: number;
  singleCores: Record<string, number>;
  steadyRate: number;
  steadyBytes: number;
  newOrgBytes: number;
  freshness: { p99: number; achievedRate: number; durationS: number };
  secondWorkerApplied?: number;
}): BenchResults {
  const copy = structuredClone(committed);
  const single = runsOf(copy, "single").at(-1) as SizeResult;
  const many = copy.sizes.find((s) => s.shape === "many" && s.size === single.size) as SizeResult;
  copy.sizes = [single, many];
  single.ingest.worker.rate = rate(input.singleRate);
  single.ingest.worker.cpu = cpu(input.singleCores);
  single.ingest.ratio = input.singleRate / single.ingest.bare.rate.eventsPerSecond;
  const { p99, achievedRate, durationS } = input.freshness;
  single.freshness = {
    ...single.freshness,
    achievedRate,
    durationS,
    workerRate: input.singleRate,
    events: achievedRate * durationS,
    latency: { ...single.freshness.latency, p99 },
  };
  many.steady = {
    passes: 1,
    organizations: 10_000,
    events: 10_000,
    rate: rate(input.steadyRate),
    cpu: cpu({ worker: 0.5, redis: 0.8 }),
    usedMemoryDelta: input.steadyBytes * 10_000,
    bytesPerEvent: input.steadyBytes,
  };
  many.newOrganizations = {
    organizations: 1000,
    usedMemoryDelta: input.newOrgBytes * 1000,
    bytesPerOrganization: input.newOrgBytes,
  };
  many.twoWorkers = {
    events: 1_000_000,
    rate: rate(80_000),
    perWorker: [
      { name: "worker-1", applied: 500_000, eventsPerSecond: 50_000 },
      { name: "worker-2", applied: input.secondWorkerApplied ?? 300_000, eventsPerSecond: 30_000 },
    ],
    cpu: cpu({ "worker-1": 0.6, "worker-2": 0.4, redis: 0.8, broker: 0.2 }),
  };
  return copy;
}

const byKind = (checks: TargetCheck[]) => new Map(checks.map((c) => [c.kind, c]));
const met = (checks: TargetCheck[], kind: TargetKind) => byKind(checks).get(kind)?.met;

const passing = {
  singleRate: 200_000,
  // 0.6 cores at 200,000 events/s: 3 µs per event; Redis 0.7: 3.5 µs.
  singleCores: { worker: 0.6, redis: 0.7, broker: 0.3 },
  steadyRate: 150_000,
  steadyBytes: 120,
  newOrgBytes: 900,
  freshness: { p99: 400, achievedRate: 100_000, durationS: FRESHNESS_SUSTAIN_S },
};

describe("issue #34's ingest rows", () => {
  it("has one row per target, each met when its measurement is within its bound", () => {
    const checks = ingestChecks(results(passing));
    expect(checks.map((c) => c.kind)).toEqual([
      "ingestRate",
      "ingest",
      "ingestRedisCpu",
      "ingestWorkerCpu",
      "freshness",
      "steadyIngest",
      "steadyMemory",
      "newOrgMemory",
      "twoWorkers",
    ]);
    expect(checks.filter((c) => c.met !== true)).toEqual([]);
    expect(byKind(checks).get("ingestRedisCpu")?.measured).toContain("3.50 µs");
    expect(byKind(checks).get("ingestWorkerCpu")?.measured).toContain("3.00 µs");
  });

  it("misses each target past its bound", () => {
    const checks = ingestChecks(
      results({
        singleRate: MIN_INGEST_RATE - 1,
        // 1.5 cores at just under 150,000 events/s: 10 µs per event each.
        singleCores: { worker: 1.5, redis: 1.5 },
        steadyRate: (MIN_INGEST_RATE - 1) * MIN_STEADY_INGEST_RATIO * 0.99,
        steadyBytes: MAX_STEADY_BYTES_PER_EVENT + 1,
        newOrgBytes: MAX_NEW_ORG_BYTES + 1,
        freshness: { p99: 1500, achievedRate: 100_000, durationS: FRESHNESS_SUSTAIN_S },
        secondWorkerApplied: 0,
      }),
    );
    for (const kind of [
      "ingestRate",
      "ingestRedisCpu",
      "ingestWorkerCpu",
      "freshness",
      "steadyIngest",
      "steadyMemory",
      "newOrgMemory",
      "twoWorkers",
    ] as const)
      expect(met(checks, kind), kind).toBe(false);
  });

  it("misses freshness when the producer fell short of half the worker's rate, whatever the p99", () => {
    const checks = ingestChecks(
      results({ ...passing, freshness: { p99: 100, achievedRate: 90_000, durationS: FRESHNESS_SUSTAIN_S } }),
    );
    expect(met(checks, "freshness")).toBe(false);
    expect(byKind(checks).get("freshness")?.measured).toContain("45 % of the worker's 200,000");
  });

  it("gives no verdict on the ratio when the bare consumer took the topic in one batch", () => {
    const r = results(passing);
    const single = runsOf(r, "single").at(-1) as SizeResult;
    single.ingest.bare.rate = rate(0, 0);
    expect(met(ingestChecks(r), "ingest")).toBeNull();
    expect(met(ingestChecks(results(passing)), "ingest")).toBe(true);
  });

  it("gives no verdict on a freshness probe shorter than the target's duration", () => {
    const checks = ingestChecks(
      results({ ...passing, freshness: { p99: 100, achievedRate: 100_000, durationS: 8 } }),
    );
    expect(met(checks, "freshness")).toBeNull();
    expect(byKind(checks).get("freshness")?.measured).toContain("no verdict");
  });

  it("says not run, with no verdict, for what the run did not measure", () => {
    const only = structuredClone(committed);
    only.sizes = runsOf(committed, "many");
    const checks = ingestChecks(only);
    expect(checks).toHaveLength(9);
    for (const kind of ["ingestRate", "ingest", "freshness", "steadyIngest"] as const) {
      expect(met(checks, kind)).toBeNull();
      expect(byKind(checks).get(kind)?.measured).toMatch(/^not run/);
    }
    // The committed multi-tenant runs predate the steady pass, the probe and the two workers.
    for (const kind of ["steadyMemory", "newOrgMemory", "twoWorkers"] as const)
      expect(met(checks, kind)).toBeNull();
  });
});

describe("the sizing table", () => {
  it("writes each ingest window as cores per 100,000 events/s, the workers added up", () => {
    const rows = sizingRows(results(passing));
    const two = rows.find((r) => r.workers === 2);
    // 1.0 worker cores, 0.8 Redis, 0.2 broker at 80,000 events/s.
    expect(two?.worker).toBeCloseTo(1.25, 6);
    expect(two?.redis).toBeCloseTo(1, 6);
    expect(two?.broker).toBeCloseTo(0.25, 6);
    const single = rows[0];
    expect(single?.run).toContain("single-org");
    expect(single?.worker).toBeCloseTo(0.3, 6);
    expect(rows.map((r) => r.run)).toHaveLength(4);
  });

  it("leaves the broker unknown where a window did not measure it", () => {
    const rows = sizingRows(committed);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r.broker).toBeNaN();
  });
});
