import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { POLL_INTERVAL_MS } from "./freshness";
import { METRICS_POLL_MS } from "./ingestBench";
import { SIZING_RATE } from "./ingestSizing";
import type { BenchResults } from "./results";
import {
  BASELINE_MIB_PER_MILLION,
  FRESHNESS_LOAD_SHARE,
  FRESHNESS_SUSTAIN_S,
  MAX_CACHED_API_CPU_MS,
  MAX_FRESHNESS_P99_MS,
  MAX_HOURLY_API_CPU_MS,
  MAX_LATER_PAGE_SHARE,
  MAX_MEMORY_OVER_BASELINE,
  MAX_NEW_ORG_BYTES,
  MAX_REDIS_COMMAND_MS,
  MAX_REDIS_OVER_CLICKHOUSE,
  MAX_REDIS_US_PER_EVENT,
  MAX_SCALING_GROWTH,
  MAX_SMALL_P99_RATIO,
  MAX_SMALL_P99_UNDER_INGEST_MS,
  MAX_STEADY_BYTES_PER_EVENT,
  MAX_TENANT_BYTES_PER_EVENT,
  MAX_TENANT_CACHED_P50_MS,
  MAX_TENANT_POSTGRES_SHARE,
  MAX_THROUGHPUT_P99_MS,
  MAX_UNDER_INGEST_SLOWDOWN,
  MAX_WORKER_US_PER_EVENT,
  MAX_ZONE_RATIO,
  MIN_ENGINE_SPEEDUP,
  MIN_INGEST_RATE,
  MIN_INGEST_RATIO,
  MIN_POSTGRES_SPEEDUP,
  MIN_ROLLUP_SPEEDUP,
  MIN_STEADY_INGEST_RATIO,
  MIN_TENANT_INGEST_RATIO,
  MIN_THROUGHPUT_SHARE,
  UNDER_INGEST_RATE_SHARE,
} from "./targetBounds";
import type { TargetKind } from "./targetCheck";
import { checkTargets } from "./targets";

const benchDir = join(import.meta.dirname, "..");
const committed = JSON.parse(
  readFileSync(join(benchDir, "src", "fixtures", "results-95441a2d.json"), "utf8"),
) as BenchResults;
const readme = readFileSync(join(benchDir, "README.md"), "utf8");

const percent = (share: number) => `${Math.round(share * 100)} %`;

/** What each target's text must say: its bound, from targetBounds.ts. */
const BOUND_TEXT: Record<Exclude<TargetKind, "correctness">, string[]> = {
  engineSpeedup: [`≥ ${MIN_ENGINE_SPEEDUP}× faster than the faster of ClickHouse and DuckDB over raw rows`],
  rollupSpeedup: [`≥ ${MIN_ROLLUP_SPEEDUP}× faster than ClickHouse with its materialized view`],
  postgresSpeedup: [`≥ ${MIN_POSTGRES_SPEEDUP}× faster than PostgreSQL`],
  zone: [`within ${MAX_ZONE_RATIO}× of its UTC twin`],
  throughput: [
    `≥ ${percent(MIN_THROUGHPUT_SHARE)} of /stats/dimensions' req/s`,
    `p99 < ${MAX_THROUGHPUT_P99_MS} ms`,
  ],
  scaling: [`≤ ${MAX_SCALING_GROWTH} × p50 at`],
  memory: [`≤ ${MAX_MEMORY_OVER_BASELINE} × ${BASELINE_MIB_PER_MILLION} MiB`],
  ingestRate: [`≥ ${MIN_INGEST_RATE} events/s`],
  ingest: [`≥ ${MIN_INGEST_RATIO} × bare kafkajs consumer`],
  ingestRedisCpu: [`Redis CPU ≤ ${MAX_REDIS_US_PER_EVENT} µs per event`],
  ingestWorkerCpu: [`worker CPU ≤ ${MAX_WORKER_US_PER_EVENT} µs per event`],
  freshness: [
    `p99 < ${MAX_FRESHNESS_P99_MS / 1000} s`,
    `at ${percent(FRESHNESS_LOAD_SHARE)} of the worker's measured rate`,
    `sustained ${FRESHNESS_SUSTAIN_S} s`,
  ],
  steadyIngest: [`≥ ${MIN_STEADY_INGEST_RATIO} × the single-org rate`],
  steadyMemory: [`Redis ≤ ${MAX_STEADY_BYTES_PER_EVENT} bytes per further event`],
  newOrgMemory: [`Redis ≤ ${MAX_NEW_ORG_BYTES} bytes`],
  twoWorkers: [`two worker processes in one group`, `per ${SIZING_RATE.toLocaleString("en-US")} events/s`],
  tenantMemory: [`Redis ≤ ${MAX_TENANT_BYTES_PER_EVENT} bytes per event`],
  tenantIngest: [`≥ ${MIN_TENANT_INGEST_RATIO} × the single-org rate`],
  storage: [`≤ ${MAX_REDIS_OVER_CLICKHOUSE} × ClickHouse's bytes on disk`],
  noisyP99: [`≤ ${MAX_SMALL_P99_RATIO} × alone`],
  noisyRedisCommand: [`< ${MAX_REDIS_COMMAND_MS} ms while they run`],
  noisyPaging: [`≤ ${percent(MAX_LATER_PAGE_SHARE)} of the first page's latency`],
  tenantPostgres: [`each computed p50 ≤ ${MAX_TENANT_POSTGRES_SHARE} × PostgreSQL's p50`],
  tenantCached: [`each cached p50 ≤ ${MAX_TENANT_CACHED_P50_MS} ms`],
  hourlyApiCpu: [`API CPU per computed request ≤ ${MAX_HOURLY_API_CPU_MS} ms`],
  cachedApiCpu: [`API CPU per cached request ≤ ${MAX_CACHED_API_CPU_MS} ms`],
  underIngestSlowdown: [
    `each computed p50 ≤ ${MAX_UNDER_INGEST_SLOWDOWN} × the same query idle`,
    `at ${percent(UNDER_INGEST_RATE_SHARE)} of its backlog rate`,
  ],
  underIngestSmallP99: [`each p99 ≤ ${MAX_SMALL_P99_UNDER_INGEST_MS} ms`],
};

/** Every figure a target text may name as a bound. */
const BOUNDS = new Set(
  [
    MIN_ENGINE_SPEEDUP,
    MIN_ROLLUP_SPEEDUP,
    MIN_POSTGRES_SPEEDUP,
    MAX_ZONE_RATIO,
    MIN_THROUGHPUT_SHARE * 100,
    MAX_THROUGHPUT_P99_MS,
    MAX_SCALING_GROWTH,
    MAX_MEMORY_OVER_BASELINE,
    BASELINE_MIB_PER_MILLION,
    MIN_INGEST_RATE,
    MIN_INGEST_RATIO,
    MAX_REDIS_US_PER_EVENT,
    MAX_WORKER_US_PER_EVENT,
    MAX_FRESHNESS_P99_MS / 1000,
    FRESHNESS_LOAD_SHARE * 100,
    FRESHNESS_SUSTAIN_S,
    MIN_STEADY_INGEST_RATIO,
    MAX_STEADY_BYTES_PER_EVENT,
    MAX_NEW_ORG_BYTES,
    MAX_TENANT_BYTES_PER_EVENT,
    MIN_TENANT_INGEST_RATIO,
    MAX_REDIS_OVER_CLICKHOUSE,
    MAX_SMALL_P99_RATIO,
    MAX_REDIS_COMMAND_MS,
    MAX_LATER_PAGE_SHARE * 100,
    MAX_TENANT_POSTGRES_SHARE,
    MAX_TENANT_CACHED_P50_MS,
    MAX_HOURLY_API_CPU_MS,
    MAX_CACHED_API_CPU_MS,
    MAX_UNDER_INGEST_SLOWDOWN,
    MAX_SMALL_P99_UNDER_INGEST_MS,
  ].map((n) => Math.round(n * 1000) / 1000),
);

/** The figures a text compares against: a number after ≥, ≤, < or "within". */
const boundsNamed = (text: string): number[] =>
  [...text.matchAll(/(?:[≥≤<]|within) (\d+(?:\.\d+)?)/g)].map(([, n]) => Number(n));

describe("the target table", () => {
  const checks = checkTargets(committed);

  it("names in each row the bound its check tests", () => {
    expect(new Set(checks.map((c) => c.kind)).size).toBe(Object.keys(BOUND_TEXT).length + 1);
    for (const check of checks) {
      if (check.kind === "correctness") continue;
      for (const text of BOUND_TEXT[check.kind]) expect(check.target, check.area).toContain(text);
    }
  });

  it("names no figure as a bound that targetBounds.ts does not declare", () => {
    const bounded = checks.filter((c) => c.kind !== "correctness");
    const named = bounded.flatMap((c) => boundsNamed(c.target));
    expect(named.length).toBeGreaterThanOrEqual(bounded.length);
    expect(named.filter((n) => !BOUNDS.has(n))).toEqual([]);
  });
});

describe("bench/README.md", () => {
  const section = readme.slice(
    readme.indexOf("## Targets checked in the report"),
    readme.indexOf("## The apply path alone"),
  );

  it("lists every target with the bound the report checks", () => {
    for (const phrase of [
      `≥ ${MIN_ENGINE_SPEEDUP}× faster than the faster of DuckDB and ClickHouse over raw rows`,
      `≥ ${MIN_ROLLUP_SPEEDUP}× faster than ClickHouse with its materialized view`,
      `≥ ${MIN_POSTGRES_SPEEDUP}× faster than\nPostgreSQL`,
      `within ${MAX_ZONE_RATIO}× of their UTC twins`,
      `≥ ${percent(MIN_THROUGHPUT_SHARE)} of \`/stats/dimensions\`' req/s with no errors and p99 < ${MAX_THROUGHPUT_P99_MS} ms`,
      `≤ ${MAX_SCALING_GROWTH} × its p50 at the smallest`,
      `≤ ${MAX_MEMORY_OVER_BASELINE} × ${BASELINE_MIB_PER_MILLION} MiB`,
      `≥ ${MIN_INGEST_RATE} events/s`,
      `ingest ≥ ${MIN_INGEST_RATIO} × the\nbare consumer`,
      `Redis CPU ≤ ${MAX_REDIS_US_PER_EVENT} µs per event and worker CPU ≤ ${MAX_WORKER_US_PER_EVENT} µs per event`,
      `produce-to-visible p99 < ${MAX_FRESHNESS_P99_MS / 1000} s`,
      `at ${percent(FRESHNESS_LOAD_SHARE)} of the worker's measured rate on that backlog, sustained ${FRESHNESS_SUSTAIN_S} s`,
      `≥ ${MIN_STEADY_INGEST_RATIO} × the single-org\nrate of the same size`,
      `Redis ≤ ${MAX_STEADY_BYTES_PER_EVENT} bytes per further event`,
      `recording Redis ≤ ${MAX_NEW_ORG_BYTES} bytes`,
      `Redis ≤ ${MAX_TENANT_BYTES_PER_EVENT} bytes per\nevent`,
      `≥ ${MIN_TENANT_INGEST_RATIO} × its single-org rate`,
      `≤ ${MAX_REDIS_OVER_CLICKHOUSE} ×\nClickHouse's bytes on disk`,
      `≤ ${MAX_SMALL_P99_RATIO} × alone`,
      `< ${MAX_REDIS_COMMAND_MS} ms while they run`,
      `≤ ${percent(MAX_LATER_PAGE_SHARE)} of the first\npage's latency`,
      `API CPU per computed request ≤ ${MAX_HOURLY_API_CPU_MS} ms`,
      `API CPU per cached request ≤ ${MAX_CACHED_API_CPU_MS} ms`,
      `each computed p50 ≤ ${MAX_TENANT_POSTGRES_SHARE} × PostgreSQL's p50`,
      `each cached p50 ≤ ${MAX_TENANT_CACHED_P50_MS} ms asked by one client alone`,
      `each computed p50 ≤ ${MAX_UNDER_INGEST_SLOWDOWN} × the same query idle`,
      `each p99 ≤ ${MAX_SMALL_P99_UNDER_INGEST_MS} ms, cached and computed`,
      `at ${percent(UNDER_INGEST_RATE_SHARE)} of its backlog rate`,
    ]) {
      expect(section).toContain(phrase);
    }
  });

  it("names no bound that targetBounds.ts does not declare", () => {
    const named = boundsNamed(section.replace(/\s+/g, " "));
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((n) => !BOUNDS.has(n))).toEqual([]);
  });

  it("gives the poll intervals the bench uses", () => {
    expect(readme).toContain(`\`/metrics\`, polled every ${METRICS_POLL_MS} ms`);
    expect(readme).toContain(`polled every ${POLL_INTERVAL_MS} ms`);
    expect(readme).toContain(`The ${POLL_INTERVAL_MS} ms poll interval bounds the error`);
    const polled = [...readme.matchAll(/polled every (\d+) ms/g)].map(([, n]) => Number(n));
    expect(polled.filter((n) => n !== METRICS_POLL_MS && n !== POLL_INTERVAL_MS)).toEqual([]);
  });
});
