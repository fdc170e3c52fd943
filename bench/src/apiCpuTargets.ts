import { everyQuery } from "./everyQuery";
import type { QueryResult } from "./queryBench";
import { f, runLabel } from "./reportFormat";
import { apiVariant, type BenchResults, runsOf } from "./results";
import { MAX_CACHED_API_CPU_MS, MAX_HOURLY_API_CPU_MS } from "./targetBounds";
import type { TargetCheck } from "./targetCheck";

/** The dashboard set's 7-day hourly questions (dashboardQueries.ts: a in Berlin, f in Kolkata). */
export const HOURLY_QUERIES = ["a", "f"] as const;

/**
 * What each figure is: the API's CPU time (its primary and every API process) over a query's closed
 * loop, ÷ the requests answered (queryBench.ts `RequestCost`).
 */
const PER_REQUEST = "all API processes over the closed loop, ÷ requests";

const HOURLY_TARGET = `API CPU per computed request ≤ ${MAX_HOURLY_API_CPU_MS} ms (${PER_REQUEST})`;
const CACHED_TARGET = `a kept answer (result cache): API CPU per cached request ≤ ${MAX_CACHED_API_CPU_MS} ms, each query (${PER_REQUEST})`;

function hourlyCheck(id: string, query: QueryResult | undefined, at: string): TargetCheck {
  const target = HOURLY_TARGET;
  const cost = query ? apiVariant(query, "computed")?.cost : undefined;
  if (cost === undefined)
    return {
      kind: "hourlyApiCpu",
      area: `API CPU (${id}, computed)`,
      target,
      measured: "not measured: no computed run of the query",
      met: null,
    };
  return {
    kind: "hourlyApiCpu",
    area: `API CPU (${id}, computed)`,
    target: `${target} (at ${at})`,
    measured: `${f(cost.apiCpuMs, 3)} ms (Redis CPU ${f(cost.redisCpuMs, 3)} ms, ${f(cost.redisCalls, 1)} commands)`,
    met: cost.apiCpuMs <= MAX_HOURLY_API_CPU_MS,
  };
}

function cachedCheck(queries: readonly QueryResult[], at: string): TargetCheck {
  const figures = queries.map((q) => ({
    id: q.id,
    value: q.cost.apiCpuMs,
    detail: `(Redis CPU ${f(q.cost.redisCpuMs, 3)} ms)`,
  }));
  return {
    kind: "cachedApiCpu",
    cached: true,
    area: "API CPU (cached)",
    target: `${CACHED_TARGET} (at ${at})`,
    ...everyQuery(figures, MAX_CACHED_API_CPU_MS, (v) => `${f(v, 3)} ms`),
  };
}

/** The API's CPU per request at the single set's largest size: the hourly questions computed, every query kept. */
export function apiCpuChecks(results: BenchResults): TargetCheck[] {
  const largest = runsOf(results, "single").at(-1);
  if (largest === undefined) {
    const notRun = { measured: "not run (`--shapes`)", met: null };
    return [
      { kind: "hourlyApiCpu", area: "API CPU (a, f, computed)", target: HOURLY_TARGET, ...notRun },
      { kind: "cachedApiCpu", cached: true, area: "API CPU (cached)", target: CACHED_TARGET, ...notRun },
    ];
  }
  const at = runLabel(largest);
  return [
    ...HOURLY_QUERIES.map((id) =>
      hourlyCheck(
        id,
        largest.queries.find((q) => q.id === id),
        at,
      ),
    ),
    cachedCheck(largest.queries, at),
  ];
}
