import { describe, expect, it } from "vitest";
import { apiCpuChecks } from "./apiCpuTargets";
import { apiRun } from "./apiRunFixture";
import type { QueryResult, RequestCost } from "./queryBench";
import type { BenchResults } from "./results";

const run = (p50: number) => apiRun(p50, p50);
const cost = (apiCpuMs: number): RequestCost => ({
  apiCpuMs,
  redisCpuMs: 0.05,
  redisCalls: 2,
  hgetallMs: 0,
  redisBytes: 100,
});

/** A single-org query: API CPU per cached and per computed request. */
const query = (id: string, cached: number, computed: number) =>
  ({
    id,
    api: run(0.5),
    cost: cost(cached),
    postgres: run(50),
    speedupP50: 100,
    computed: run(5),
    computedCost: cost(computed),
    mismatch: null,
  }) as unknown as QueryResult;

const results = (...sizes: Array<{ size: number; queries: QueryResult[] }>) =>
  ({ sizes: sizes.map((s) => ({ shape: "single", engines: [], ...s })) }) as unknown as BenchResults;

describe("apiCpuChecks", () => {
  const checks = apiCpuChecks(
    results(
      { size: 50_000, queries: [query("a", 9, 9), query("f", 9, 9)] },
      { size: 10_000_000, queries: [query("a", 0.2, 0.8), query("b", 0.45, 4), query("f", 0.1, 1.3)] },
    ),
  );

  it("holds a and f computed to the hourly bound at the largest single-org size, and every cached query to its own", () => {
    expect(checks.map((c) => [c.kind, c.area, c.met])).toEqual([
      ["hourlyApiCpu", "API CPU (a, computed)", true],
      ["hourlyApiCpu", "API CPU (f, computed)", false],
      ["cachedApiCpu", "API CPU (cached)", false],
    ]);
    expect(checks[1]?.measured).toBe("1.300 ms (Redis CPU 0.050 ms, 2.0 commands)");
    expect(checks[1]?.target).toContain("(at 10M single-org)");
  });

  it("names the worst cached query and how many met, as a cached row", () => {
    const cached = checks[2];
    expect(cached?.cached).toBe(true);
    expect(cached?.measured).toBe("2 of 3 queries; the worst b 0.450 ms (Redis CPU 0.050 ms)");
  });

  it("says not measured for an hourly query the results lack a computed run of", () => {
    const older = query("a", 0.2, 0.8);
    delete older.computedCost;
    const [a, f] = apiCpuChecks(results({ size: 1_000_000, queries: [older] }));
    expect(a?.met).toBeNull();
    expect(f?.met).toBeNull();
    expect(f?.measured).toContain("not measured");
  });

  it("says not run, met null, without the single-org set", () => {
    const none = apiCpuChecks(results());
    expect(none.map((c) => c.kind)).toEqual(["hourlyApiCpu", "cachedApiCpu"]);
    for (const c of none) expect(c.met).toBeNull();
  });
});
