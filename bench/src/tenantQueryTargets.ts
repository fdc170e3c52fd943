import type { OrganizationRole } from "./benchDataset";
import { everyQuery } from "./everyQuery";
import type { QueryResult } from "./queryBench";
import { f, runLabel } from "./reportFormat";
import { apiVariant, type BenchResults, runsOf } from "./results";
import { MAX_TENANT_CACHED_P50_MS, MAX_TENANT_POSTGRES_SHARE } from "./targetBounds";
import type { TargetCheck } from "./targetCheck";

/** The multi-tenant set's organizations these targets are about: most tenants are this size or smaller. */
export const SMALL_TENANT_ROLES: readonly OrganizationRole[] = ["median", "smallest"];

/** The queries asked for one organization of the data set (the single set's: role `large`). */
export const queriesOf = (queries: readonly QueryResult[], role: OrganizationRole): QueryResult[] =>
  queries.filter((q) => (q.organization?.role ?? "large") === role);

const POSTGRES_TARGET = `each computed p50 ≤ ${MAX_TENANT_POSTGRES_SHARE} × PostgreSQL's p50 (indexed raw table), the same closed loop`;
const CACHED_TARGET = `a kept answer (result cache): each cached p50 ≤ ${MAX_TENANT_CACHED_P50_MS} ms, one client alone`;

function postgresCheck(queries: readonly QueryResult[], role: OrganizationRole, at: string): TargetCheck {
  const figures = queries.flatMap((q) => {
    const computed = apiVariant(q, "computed");
    if (computed === undefined) return [];
    const share = computed.run.p50 / q.postgres.p50;
    return [
      { id: q.id, value: share, detail: `(${f(computed.run.p50, 2)} ms vs ${f(q.postgres.p50, 2)} ms)` },
    ];
  });
  return {
    kind: "tenantPostgres",
    area: `Tenant ${role} (computed)`,
    target: `${POSTGRES_TARGET} (at ${at})`,
    ...everyQuery(figures, MAX_TENANT_POSTGRES_SHARE, (v) => `×${f(v, 2)}`),
  };
}

function cachedCheck(queries: readonly QueryResult[], role: OrganizationRole, at: string): TargetCheck {
  // One client alone: the latency a dashboard sees, without queueing behind the closed loop's
  // other connections on two cores. Results from before the one-stream runs have none.
  const figures = queries.flatMap((q) => {
    const alone = q.singleStream?.cached;
    return alone === undefined ? [] : [{ id: q.id, value: alone.p50, detail: `(p99 ${f(alone.p99, 2)} ms)` }];
  });
  return {
    kind: "tenantCached",
    cached: true,
    area: `Tenant ${role} (cached)`,
    target: `${CACHED_TARGET} (at ${at})`,
    ...everyQuery(figures, MAX_TENANT_CACHED_P50_MS, (v) => `${f(v, 3)} ms`),
  };
}

/**
 * The multi-tenant set's median and smallest organization at its largest size: every computed
 * query against PostgreSQL's indexed raw table, every cached one against an absolute bound.
 */
export function tenantQueryChecks(results: BenchResults): TargetCheck[] {
  const largest = runsOf(results, "many").at(-1);
  return SMALL_TENANT_ROLES.flatMap((role): TargetCheck[] => {
    if (largest === undefined) {
      const notRun = { measured: "not run (`--shapes`)", met: null };
      return [
        { kind: "tenantPostgres", area: `Tenant ${role} (computed)`, target: POSTGRES_TARGET, ...notRun },
        {
          kind: "tenantCached",
          cached: true,
          area: `Tenant ${role} (cached)`,
          target: CACHED_TARGET,
          ...notRun,
        },
      ];
    }
    const queries = queriesOf(largest.queries, role);
    const at = runLabel(largest);
    return [postgresCheck(queries, role, at), cachedCheck(queries, role, at)];
  });
}
