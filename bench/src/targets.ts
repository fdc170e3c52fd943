import { apiCpuChecks } from "./apiCpuTargets";
import { cachedTargetsNote } from "./cachedNote";
import { PEER_NAMES } from "./engines/peerEngine";
import { ingestChecks } from "./ingestTargets";
import { noisyChecks } from "./noisyReport";
import type { QueryResult } from "./queryBench";
import { f, runLabel as label, table } from "./reportFormat";
import {
  type ApiVariant,
  apiVariant,
  apiVariants,
  type BenchResults,
  engineMismatches,
  runsOf,
  type SizeResult,
} from "./results";
import {
  BASELINE_MIB_PER_MILLION,
  MAX_MEMORY_OVER_BASELINE,
  MAX_SCALING_GROWTH,
  MAX_THROUGHPUT_P99_MS,
  MAX_ZONE_RATIO,
  MIN_ENGINE_SPEEDUP,
  MIN_POSTGRES_SPEEDUP,
  MIN_ROLLUP_SPEEDUP,
  MIN_THROUGHPUT_SHARE,
} from "./targetBounds";
import type { TargetCheck } from "./targetCheck";
import { tenantQueryChecks } from "./tenantQueryTargets";
import { tenantChecks } from "./tenantTargets";
import { underIngestChecks } from "./underIngestTargets";

export type { TargetCheck };

/** The faster engine over raw rows (DuckDB, ClickHouse) for a query: its p50 and its name. */
export function fasterEngine(s: SizeResult, id: string): { name: string; p50: number } | undefined {
  return s.engines
    .filter((e) => (e.layout ?? "raw") === "raw")
    .map((e) => ({ name: e.name, p50: e.queries[id]?.p50 ?? Number.NaN }))
    .filter((e) => Number.isFinite(e.p50))
    .sort((a, b) => a.p50 - b.p50)[0];
}

/** A query's API p50 against a peer's, at equal concurrency when the run measured it. */
export interface EngineComparison {
  engine: { name: string; p50: number };
  /** The API's p50: one client alone if measured (as the engines are timed), else the closed loop's. */
  p50: number;
  singleStream: boolean;
  /** The engine's p50 ÷ the API's. */
  ratio: number;
}

function compareWith(engine: { name: string; p50: number }, v: ApiVariant): EngineComparison {
  // The engines run one query at a time in the bench's process.
  const p50 = v.single?.p50 ?? v.run.p50;
  return { engine, p50, singleStream: v.single !== undefined, ratio: engine.p50 / p50 };
}

export function engineComparison(s: SizeResult, q: QueryResult, v: ApiVariant): EngineComparison | undefined {
  const engine = fasterEngine(s, q.id);
  return engine === undefined ? undefined : compareWith(engine, v);
}

/** The run's ClickHouse with its materialized view, if it ran. */
const clickhouseRollup = (s: SizeResult) => s.engines.find((e) => e.name === PEER_NAMES.clickhouseRollup);

/** A query's API p50 against ClickHouse with its materialized view, which computes every answer. */
export function rollupComparison(s: SizeResult, q: QueryResult, v: ApiVariant): EngineComparison | undefined {
  const rollup = clickhouseRollup(s);
  const result = rollup?.queries[q.id];
  return rollup === undefined || result === undefined
    ? undefined
    : compareWith({ name: rollup.name, p50: result.p50 }, v);
}

/** A cached row's target says what it compares: the API's kept answer against a system that computes. */
const keptAgainst = (v: ApiVariant, other: string): string =>
  v.name === "cached" ? `a kept answer (result cache) against ${other}: ` : "";

/**
 * Every query target is checked for both ways the API is asked: `cached` (the same query repeated,
 * answered from the result cache) and `computed` (`Cache-Control: no-cache`, planned, read and
 * summed on every request). Results from before the bench measured both have only the first.
 */
function queryChecks(largest: SizeResult): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const q of largest.queries) {
    for (const v of apiVariants(q)) {
      const area = `Query ${q.id} (${v.name})`;
      const vsEngine = engineComparison(largest, q, v);
      if (vsEngine) {
        const { engine, p50, ratio } = vsEngine;
        const stream = vsEngine.singleStream ? "one stream each" : "the API under concurrent clients";
        checks.push({
          kind: "engineSpeedup",
          cached: v.name === "cached",
          area,
          target: `${keptAgainst(v, "engines that compute every answer")}p50 ≥ ${MIN_ENGINE_SPEEDUP}× faster than the faster of ClickHouse and DuckDB over raw rows, ${stream} (at ${label(largest)})`,
          measured: `×${f(ratio, 1)} (${f(p50, 2)} ms vs ${engine.name} ${f(engine.p50, 2)} ms)`,
          met: ratio >= MIN_ENGINE_SPEEDUP,
        });
      }
      // Against the rollup, the computed answer only: chDB keeps ClickHouse's query cache off, so
      // there is no kept answer of ClickHouse's to hold the API's kept answers against.
      const vsRollup = v.name === "computed" ? rollupComparison(largest, q, v) : undefined;
      if (vsRollup) checks.push(rollupCheck(area, vsRollup, largest));
      checks.push({
        kind: "postgresSpeedup",
        cached: v.name === "cached",
        area,
        target: `${keptAgainst(v, "PostgreSQL computing every answer")}p50 ≥ ${MIN_POSTGRES_SPEEDUP}× faster than PostgreSQL (at ${label(largest)})`,
        measured: `×${f(v.speedupP50, 1)} (${f(v.run.p50, 2)} ms vs ${f(q.postgres.p50, 1)} ms)`,
        met: v.speedupP50 >= MIN_POSTGRES_SPEEDUP,
      });
    }
  }
  return checks;
}

/** A computed query against ClickHouse with its materialized view. */
function rollupCheck(area: string, vs: EngineComparison, largest: SizeResult): TargetCheck {
  const stream = vs.singleStream ? "one stream each" : "the API under concurrent clients";
  return {
    kind: "rollupSpeedup",
    area,
    target: `p50 ≥ ${MIN_ROLLUP_SPEEDUP}× faster than ClickHouse with its materialized view, ${stream} (at ${label(largest)})`,
    measured: `×${f(vs.ratio, 1)} (${f(vs.p50, 2)} ms vs ${vs.engine.name} ${f(vs.engine.p50, 2)} ms)`,
    met: vs.ratio >= MIN_ROLLUP_SPEEDUP,
  };
}

/** The rollup target's one row when the run has no ClickHouse materialized view to compare with. */
function rollupNotMeasured(largest: SizeResult): TargetCheck[] {
  if (clickhouseRollup(largest) !== undefined) return [];
  return [
    {
      kind: "rollupSpeedup",
      area: "Queries (computed)",
      target: `each p50 ≥ ${MIN_ROLLUP_SPEEDUP}× faster than ClickHouse with its materialized view, one stream each (at ${label(largest)})`,
      measured:
        "not measured: no ClickHouse materialized view in this run (`--skip-engines`, or results from before it)",
      met: null,
    },
  ];
}

function zoneChecks(largest: SizeResult): TargetCheck[] {
  return largest.queries.flatMap((twin) => {
    const zoned = largest.queries.find((q) => q.id === twin.id.replace(/-utc$/, ""));
    if (!twin.id.endsWith("-utc") || zoned === undefined) return [];
    return apiVariants(zoned).flatMap((z) => {
      const t = apiVariant(twin, z.name);
      if (t === undefined) return [];
      const ratio = z.run.p50 / t.run.p50;
      return [
        {
          kind: "zone",
          cached: z.name === "cached",
          area: `Zone (${zoned.id}, ${z.name})`,
          target: `${z.name === "cached" ? "both kept answers (result cache): " : ""}p50 within ${MAX_ZONE_RATIO}× of its UTC twin (${twin.id}) (at ${label(largest)})`,
          measured: `×${f(ratio, 2)} (${f(z.run.p50, 2)} ms vs ${f(t.run.p50, 2)} ms)`,
          met: ratio <= MAX_ZONE_RATIO,
        },
      ];
    });
  });
}

function throughputChecks(largest: SizeResult, connections: number): TargetCheck[] {
  const reference = largest.throughput.find((t) => t.id === "dimensions");
  if (reference === undefined) return [];
  return largest.throughput
    .filter((t) => t !== reference)
    .map((t) => {
      const share = t.requestsPerSecond / reference.requestsPerSecond;
      return {
        kind: "throughput",
        cached: true,
        area: `Throughput (${t.id}, cached)`,
        target: `${connections} connections on the same query repeated (answered from the result cache): ≥ ${f(MIN_THROUGHPUT_SHARE * 100)} % of /stats/dimensions' req/s, 0 errors, p99 < ${MAX_THROUGHPUT_P99_MS} ms (at ${label(largest)})`,
        measured:
          `${f(share * 100)} % (${f(t.requestsPerSecond)} vs ${f(reference.requestsPerSecond)} req/s), ${f(t.errors)} errors, p99 ${f(t.p99)} ms` +
          (t.cores ? `; cores API ${f(t.cores.api, 2)}, load generator ${f(t.cores.loadGenerator, 2)}` : ""),
        met: share >= MIN_THROUGHPUT_SHARE && t.errors === 0 && t.p99 < MAX_THROUGHPUT_P99_MS,
      };
    });
}

function scalingChecks(smallest: SizeResult, largest: SizeResult): TargetCheck[] {
  return largest.queries.flatMap((q) => {
    const small = smallest.queries.find((s) => s.id === q.id);
    if (small === undefined) return [];
    return apiVariants(q).flatMap((large) => {
      const before = apiVariant(small, large.name);
      if (before === undefined) return [];
      const growth = large.run.p50 / before.run.p50;
      return [
        {
          kind: "scaling",
          cached: large.name === "cached",
          area: `Query ${q.id} (${large.name})`,
          target: `${large.name === "cached" ? "kept answers (result cache): " : ""}p50 at ${label(largest)} ≤ ${MAX_SCALING_GROWTH} × p50 at ${label(smallest)}`,
          measured: `×${f(growth, 2)} (${f(before.run.p50, 2)} → ${f(large.run.p50, 2)} ms)`,
          met: growth <= MAX_SCALING_GROWTH,
        },
      ];
    });
  });
}

function memoryCheck(largest: SizeResult): TargetCheck {
  const perMillion = largest.memory.perMillion.total / 2 ** 20;
  const hour = largest.memory.tiers.hour;
  const share = hour ? hour.bytes / Math.max(1, largest.memory.rollupBytes) : Number.NaN;
  return {
    kind: "memory",
    area: "Redis memory",
    target: `per million events ≤ ${MAX_MEMORY_OVER_BASELINE} × ${BASELINE_MIB_PER_MILLION} MiB (at ${label(largest)})`,
    measured: `${f(perMillion)} MiB (×${f(perMillion / BASELINE_MIB_PER_MILLION, 2)}); hour blocks, which hold the quarter hours, ${f(share * 100)} % of rollups`,
    met: perMillion <= MAX_MEMORY_OVER_BASELINE * BASELINE_MIB_PER_MILLION,
  };
}

/**
 * The read-path targets, checked on the single-org data set's largest size; scaling compares its
 * largest with its smallest. Then the ingest targets (ingestTargets.ts), the multi-tenant
 * ones (its memory and ingest, and storage against ClickHouse), the noisy-neighbour ones, and every
 * run's correctness.
 */
export function checkTargets(results: BenchResults): TargetCheck[] {
  const single = runsOf(results, "single");
  const largest = single.at(-1);
  const smallest = single[0];
  const checks: TargetCheck[] = largest && smallest ? singleChecks(results, largest, smallest) : [];
  checks.push(...apiCpuChecks(results));
  checks.push(...ingestChecks(results));
  checks.push(...tenantChecks(results));
  checks.push(...tenantQueryChecks(results));
  checks.push(...underIngestChecks(results));
  checks.push(...noisyChecks(results));
  for (const s of results.sizes) checks.push(correctnessCheck(s));
  return checks;
}

/** The target table in Markdown, with what its cached rows compare. */
export function targetsTable(results: BenchResults): string {
  const verdict = (met: boolean | null) => (met === null ? "– not measured" : met ? "✅ met" : "❌ missed");
  const checks = checkTargets(results);
  const rows = table(
    ["Area", "Target", "Measured", ""],
    checks.map((c) => [c.area, c.target, c.measured, verdict(c.met)]),
  );
  const note = cachedTargetsNote(checks);
  return note === "" ? rows : `${rows}\n\n${note}`;
}

function singleChecks(results: BenchResults, largest: SizeResult, smallest: SizeResult): TargetCheck[] {
  return [
    ...queryChecks(largest),
    ...rollupNotMeasured(largest),
    ...zoneChecks(largest),
    ...throughputChecks(largest, results.throughputConnections),
    ...(largest !== smallest ? scalingChecks(smallest, largest) : []),
    memoryCheck(largest),
  ];
}

/** The API, PostgreSQL and each engine agree on every query of the run. */
function correctnessCheck(s: SizeResult): TargetCheck {
  const wrong = [
    ...s.queries.filter((q) => q.mismatch !== null).map((q) => `${q.id} (PostgreSQL)`),
    ...engineMismatches(s.engines),
  ];
  const engines = ["PostgreSQL (raw table)", ...s.engines.map((e) => e.name)].join(", ");
  const empty = s.queries.filter((q) => q.empty).length;
  return {
    kind: "correctness",
    area: "Correctness",
    target: `the API, ${engines} return the same numbers (${label(s)})`,
    measured:
      wrong.length === 0
        ? `all ${s.queries.length} queries agree${empty > 0 ? ` (${empty} of them empty on every system)` : ""}`
        : `MISMATCH in ${wrong.join(", ")}`,
    met: wrong.length === 0,
  };
}
