import { describe, expect, it } from "vitest";
import { apiRun, REQUEST_COST } from "./apiRunFixture";
import type { OrganizationRole } from "./benchDataset";
import type { QueryResult } from "./queryBench";
import type { BenchResults } from "./results";
import { tenantQueryChecks } from "./tenantQueryTargets";

const run = apiRun;
const cost = REQUEST_COST;

/** A query of one organization: its computed and PostgreSQL p50s, its cached p50 by one client. */
function query(role: OrganizationRole, id: string, p: { computed: number; postgres: number; alone: number }) {
  return {
    id: `${role}:${id}`,
    organization: { role, organizationId: `org-${role}`, recordings: 10 },
    api: run(0.5),
    cost,
    postgres: run(p.postgres),
    speedupP50: p.postgres / 0.5,
    computed: run(p.computed),
    computedCost: cost,
    singleStream: { cached: run(p.alone), computed: run(p.computed) },
    mismatch: null,
  } as unknown as QueryResult;
}

const many = (size: number, queries: QueryResult[]) =>
  ({ shape: "many", size, queries, engines: [] }) as unknown as BenchResults["sizes"][number];

const results = (sizes: BenchResults["sizes"]) => ({ sizes }) as unknown as BenchResults;

describe("tenantQueryChecks", () => {
  const largest = many(1_000_000, [
    query("largest", "a", { computed: 9, postgres: 10, alone: 0.9 }),
    query("median", "a", { computed: 1, postgres: 4, alone: 0.2 }),
    query("median", "b", { computed: 3, postgres: 4, alone: 0.25 }),
    query("smallest", "a", { computed: 1, postgres: 3, alone: 0.1 }),
    query("smallest", "b", { computed: 1.2, postgres: 3, alone: 0.2 }),
  ]);
  const checks = tenantQueryChecks(
    results([many(50_000, [query("median", "a", { computed: 99, postgres: 1, alone: 9 })]), largest]),
  );

  it("checks the median and smallest organization of the largest multi-tenant run, not the largest one", () => {
    expect(checks.map((c) => [c.kind, c.area])).toEqual([
      ["tenantPostgres", "Tenant median (computed)"],
      ["tenantCached", "Tenant median (cached)"],
      ["tenantPostgres", "Tenant smallest (computed)"],
      ["tenantCached", "Tenant smallest (cached)"],
    ]);
    for (const c of checks) expect(c.target).toContain("(at 1M multi-tenant)");
  });

  it("misses a computed row when any query is above half PostgreSQL's p50, naming the worst", () => {
    const [median, , smallest] = checks;
    expect(median?.met).toBe(false);
    expect(median?.measured).toBe("1 of 2 queries; the worst median:b ×0.75 (3.00 ms vs 4.00 ms)");
    expect(smallest?.met).toBe(true);
    expect(smallest?.measured).toBe("all 2 queries; the highest smallest:b ×0.40 (1.20 ms vs 3.00 ms)");
  });

  it("holds each cached p50 by one client to the absolute bound, as a cached row", () => {
    const [, median, , smallest] = checks;
    expect(median?.cached).toBe(true);
    expect(median?.met).toBe(true);
    expect(median?.measured).toContain("the highest median:b 0.250 ms");
    expect(smallest?.met).toBe(true);
  });

  it("says not run, met null, when the multi-tenant set did not run", () => {
    const none = tenantQueryChecks(results([]));
    expect(none).toHaveLength(4);
    for (const c of none) {
      expect(c.met).toBeNull();
      expect(c.measured).toBe("not run (`--shapes`)");
    }
  });

  it("says not measured when the results hold no one-client runs", () => {
    const older = query("median", "a", { computed: 1, postgres: 4, alone: 0.2 });
    delete older.singleStream;
    const [, cached] = tenantQueryChecks(results([many(1_000_000, [older])]));
    expect(cached?.met).toBeNull();
    expect(cached?.measured).toContain("not measured");
  });
});
