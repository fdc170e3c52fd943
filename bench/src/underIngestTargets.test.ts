import { describe, expect, it } from "vitest";
import { apiRun, REQUEST_COST } from "./apiRunFixture";
import type { OrganizationRole } from "./benchDataset";
import type { QueryResult } from "./queryBench";
import type { BenchResults, SizeResult } from "./results";
import type { UnderIngestQuery, UnderIngestResult } from "./underIngest";
import { underIngestChecks } from "./underIngestTargets";

const run = apiRun;
const cost = REQUEST_COST;

/** A query's idle runs (computed p50 given) for one organization. */
const idle = (role: OrganizationRole, id: string, computedP50: number) =>
  ({
    id: role === "large" ? id : `${role}:${id}`,
    organization: { role, organizationId: `org-${role}`, recordings: 10 },
    api: run(0.2),
    cost,
    postgres: run(50),
    speedupP50: 250,
    computed: run(computedP50),
    computedCost: cost,
    mismatch: null,
  }) as unknown as QueryResult;

/** The same query under ingest: computed p50 and p99, cached p99, the cached run's lookups. */
const under = (
  id: string,
  p: { computed: number; computedP99?: number; cachedP99?: number; hits?: number },
) =>
  ({
    id,
    cached: run(0.3, p.cachedP99 ?? 0.6),
    computed: run(p.computed, p.computedP99 ?? p.computed * 2),
    lookups: { hit: p.hits ?? 99, joined: 0, miss: 100 - (p.hits ?? 99), bypass: 0 },
  }) satisfies UnderIngestQuery;

const pass = (queries: UnderIngestQuery[]): UnderIngestResult => ({
  workerRate: 40_000,
  share: 0.5,
  targetRate: 20_000,
  appliedRate: 19_500,
  sent: 100_000,
  producedRate: 19_900,
  organizations: 6,
  queries,
});

const size = (shape: "single" | "many", queries: QueryResult[], underIngest?: UnderIngestResult) =>
  ({
    shape,
    size: 1_000_000,
    queries,
    engines: [],
    ...(underIngest ? { underIngest } : {}),
  }) as unknown as SizeResult;

const results = (...sizes: SizeResult[]) => ({ sizes }) as unknown as BenchResults;

describe("underIngestChecks", () => {
  const single = size(
    "single",
    [idle("large", "a", 4), idle("large", "b", 10)],
    pass([under("a", { computed: 5 }), under("b", { computed: 16 })]),
  );
  const many = size(
    "many",
    [idle("largest", "a", 4), idle("median", "a", 2), idle("smallest", "a", 1), idle("smallest", "b", 1)],
    pass([
      under("largest:a", { computed: 4.4 }),
      under("median:a", { computed: 2 }),
      under("smallest:a", { computed: 1.2, computedP99: 12, cachedP99: 3, hits: 50 }),
      under("smallest:b", { computed: 1, computedP99: 4, cachedP99: 2, hits: 100 }),
    ]),
  );
  const checks = underIngestChecks(results(single, many));

  it("has a slowdown row per queried organization and the smallest one's p99 cached and computed", () => {
    expect(checks.map((c) => [c.kind, c.area, c.met])).toEqual([
      ["underIngestSlowdown", "Under ingest, large (computed)", false],
      ["underIngestSlowdown", "Under ingest, largest (computed)", true],
      ["underIngestSlowdown", "Under ingest, median (computed)", true],
      ["underIngestSlowdown", "Under ingest, smallest (computed)", true],
      ["underIngestSmallP99", "Under ingest, smallest (cached)", true],
      ["underIngestSmallP99", "Under ingest, smallest (computed)", false],
    ]);
  });

  it("compares each query under ingest with its own idle run and names the worst", () => {
    expect(checks[0]?.measured).toBe(
      "1 of 2 queries; the worst b ×1.60 (10.00 → 16.00 ms); stream 19,500 of 20,000 events/s asked (19,900 produced), cache hit rate 99.0 %",
    );
  });

  it("gives the hit rate of the organization's own cached runs", () => {
    expect(checks[3]?.measured).toContain("cache hit rate 75.0 %");
    expect(checks[5]?.measured).toContain("the worst smallest:a 12.00 ms (p50 1.20 ms)");
    expect(checks[4]?.cached).toBe(true);
  });

  it("says not run when the pass was skipped or the shape left out", () => {
    const skipped = underIngestChecks(results(size("single", [idle("large", "a", 4)])));
    expect(skipped.map((c) => [c.area, c.met, c.measured])).toEqual([
      [
        "Under ingest, large (computed)",
        null,
        "not run (`--skip-under-ingest`, or results from before the pass)",
      ],
      ["Under ingest, largest (computed)", null, "not run (`--shapes`)"],
      ["Under ingest, median (computed)", null, "not run (`--shapes`)"],
      ["Under ingest, smallest (computed)", null, "not run (`--shapes`)"],
      ["Under ingest, smallest (cached)", null, "not run (`--shapes`)"],
      ["Under ingest, smallest (computed)", null, "not run (`--shapes`)"],
    ]);
  });
});
