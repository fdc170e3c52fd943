import { describe, expect, it } from "vitest";
import type { LatencySummary } from "./latencyStats";
import type { NoisyNeighbourResult } from "./noisyNeighbour";
import { noisyChecks, noisySection } from "./noisyReport";
import type { BenchResults } from "./results";

const latency = (p50: number, p99 = p50 * 2): LatencySummary => ({
  samples: 10,
  p50,
  p90: p99,
  p99,
  mean: p50,
  max: p99,
});
const phase = { small: latency(2), smallFailed: 0, redisPing: latency(1), redisLongestCommandMs: 0 };

/** A run written before the heavy organization: the largest organization, a few thousand rows. */
const older: NoisyNeighbourResult = {
  smallOrganization: "bench-t10000",
  heavyOrganization: "bench-t00001",
  smallPath: "/api/v1/stats?granularity=hour",
  heavyPath: "/api/v1/stats?granularity=hour&group_by=member_email&page_size=1000",
  heavyRate: 4,
  alone: phase,
  withHeavy: { ...phase, heavy: latency(40), heavyRefused: 0, heavyFailed: 0 },
  paging: { totalRows: 7_327, firstPageMs: 37, laterPages: latency(8) },
};

const current: NoisyNeighbourResult = {
  ...older,
  heavyOrganization: "bench-heavy",
  heavyLoad: { org: "bench-heavy", recordings: 100_000, days: 30, produceSeconds: 3, applySeconds: 9.5 },
  withHeavy: {
    ...phase,
    redisLongestCommandMs: 9,
    redisLatencyEvents: { "fast-command": 2, command: 9 },
    redisSlowCommands: [{ ms: 9.2, command: "hget k:extent", args: 3 }],
    heavy: latency(900),
    heavyRefused: 12,
    heavyFailed: 1,
  },
  paging: { totalRows: 100_000, firstPageMs: 1_200, laterPages: latency(6), connections: 1, refused: 0 },
};

const results = (noisyNeighbour: NoisyNeighbourResult) =>
  ({ sizes: [{ shape: "many", size: 1_000_000, noisyNeighbour }] }) as unknown as BenchResults;

describe("noisySection", () => {
  it("names the heavy organization made for the section, its refusals and the paging connection", () => {
    const text = noisySection(results(current));
    expect(text).toContain("(`bench-heavy`: 100,000 recordings");
    expect(text).toContain("its answer has 100,000 rows)");
    expect(text).toContain("each with a member and an app of its own");
    expect(text).toContain("10 at 900.0 ms / 12, 1 failed (4/s asked)");
    expect(text).toContain("| 1M multi-tenant | 100,000 | 1,200.0 ms | 6.00 ms / 12.0 ms | 0.5 % | 1 / 0 |");
    expect(text).toContain("may\nreach another process");
    expect(text).toContain("| < 1 ms / 9 ms (command 9 ms, fast-command 2 ms) |");
    expect(text).toContain("- 1M multi-tenant: `hget k:extent` (3 arguments) 9.2 ms");
  });

  it("says how many rounds the phases alternated, each round's p99s and Redis' priority", () => {
    const text = noisySection(
      results({
        ...current,
        rounds: 2,
        roundP99s: [
          { alone: 4, beside: 5.5 },
          { alone: 3.25, beside: 6 },
        ],
        redisNice: -5,
      }),
    );
    expect(text).toContain("alternate 2 times");
    expect(text).toContain("Redis ran at nice -5");
    expect(text).toContain("| 4.0 → 5.5; 3.3 → 6.0 |");
    expect(noisySection(results(current))).toContain("The two phases ran once each.");
  });

  it("still renders results from before it: the largest organization, no connection count", () => {
    const text = noisySection(results(older));
    expect(text).toContain("its largest organization (`bench-t00001`)");
    expect(text).toContain("| 1M multi-tenant | 7,327 | 37.0 ms | 8.00 ms / 16.0 ms | 21.6 % | – |");
  });
});

describe("noisyChecks' paging target", () => {
  const paging = (n: NoisyNeighbourResult) => noisyChecks(results(n)).at(-1);

  it("is met on the heavy organization's answer when later pages cost ≤ 10 % of the first", () => {
    expect(paging(current)).toMatchObject({ met: true, measured: expect.stringContaining("100,000 rows") });
  });

  it("is not taken from a run that paged the largest organization's small answer", () => {
    expect(paging(older)).toMatchObject({ met: null, measured: expect.stringContaining("7,327 rows") });
  });
});
