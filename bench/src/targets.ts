import { noisyChecks } from "./noisyReport";
import { f, runLabel as label, table } from "./reportFormat";
import { apiVariant, apiVariants, type BenchResults, runsOf, type SizeResult } from "./results";
import type { TargetCheck } from "./targetCheck";
import { tenantChecks } from "./tenantTargets";

export type { TargetCheck };

/** The memory target's baseline: Redis MiB per million events (bench/README.md, "Targets checked…"). */
export const BASELINE_MIB_PER_MILLION = 157;

/** The faster embedded engine's p50 for a query, and its name. */
export function fasterEngine(s: SizeResult, id: string): { name: string; p50: number } | undefined {
  return s.engines
    .map((e) => ({ name: e.name, p50: e.queries[id]?.p50 ?? Number.NaN }))
    .filter((e) => Number.isFinite(e.p50))
    .sort((a, b) => a.p50 - b.p50)[0];
}

/**
 * Every query target is checked for both ways the API is asked: `cached` (the same query repeated,
 * answered from the result cache) and `computed` (`Cache-Control: no-cache`, planned, read and
 * summed on every request). Results from before the bench measured both have only the first.
 */
function queryChecks(largest: SizeResult): TargetCheck[] {
  const checks: TargetCheck[] = [];
  for (const q of largest.queries) {
    const engine = fasterEngine(largest, q.id);
    for (const v of apiVariants(q)) {
      const area = `Query ${q.id} (${v.name})`;
      if (engine) {
        // At equal concurrency: the engines run one query at a time in the bench's process.
        const p50 = v.single?.p50 ?? v.run.p50;
        const stream = v.single ? "one stream each" : "the API under concurrent clients";
        const ratio = engine.p50 / p50;
        checks.push({
          area,
          target: `p50 ≥ 10× faster than the faster of ClickHouse and DuckDB, ${stream} (at ${label(largest)})`,
          measured: `×${f(ratio, 1)} (${f(p50, 2)} ms vs ${engine.name} ${f(engine.p50, 2)} ms)`,
          met: ratio >= 10,
        });
      }
      checks.push({
        area,
        target: `p50 ≥ 200× faster than PostgreSQL (at ${label(largest)})`,
        measured: `×${f(v.speedupP50, 1)} (${f(v.run.p50, 2)} ms vs ${f(q.postgres.p50, 1)} ms)`,
        met: v.speedupP50 >= 200,
      });
    }
  }
  return checks;
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
          area: `Zone (${zoned.id}, ${z.name})`,
          target: `p50 within 1.5× of its UTC twin (${twin.id}) (at ${label(largest)})`,
          measured: `×${f(ratio, 2)} (${f(z.run.p50, 2)} ms vs ${f(t.run.p50, 2)} ms)`,
          met: ratio <= 1.5,
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
        area: `Throughput (${t.id}, cached)`,
        target: `${connections} connections on the same query repeated (answered from the result cache): ≥ 40 % of /stats/dimensions' req/s, 0 errors, p99 < 250 ms (at ${label(largest)})`,
        measured:
          `${f(share * 100)} % (${f(t.requestsPerSecond)} vs ${f(reference.requestsPerSecond)} req/s), ${f(t.errors)} errors, p99 ${f(t.p99)} ms` +
          (t.cores ? `; cores API ${f(t.cores.api, 2)}, load generator ${f(t.cores.loadGenerator, 2)}` : ""),
        met: share >= 0.4 && t.errors === 0 && t.p99 < 250,
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
          area: `Query ${q.id} (${large.name})`,
          target: `p50 at ${label(largest)} ≤ 1.2 × p50 at ${label(smallest)}`,
          measured: `×${f(growth, 2)} (${f(before.run.p50, 2)} → ${f(large.run.p50, 2)} ms)`,
          met: growth <= 1.2,
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
    area: "Redis memory",
    target: `per million events ≤ 1.3 × ${BASELINE_MIB_PER_MILLION} MiB (at ${label(largest)})`,
    measured: `${f(perMillion)} MiB (×${f(perMillion / BASELINE_MIB_PER_MILLION, 2)}); hour blocks, which hold the quarter hours, ${f(share * 100)} % of rollups`,
    met: perMillion <= 1.3 * BASELINE_MIB_PER_MILLION,
  };
}

/**
 * The read-path, ingest and freshness targets, checked on the single-org data set's largest size;
 * scaling compares its largest with its smallest. Then the multi-tenant targets (its memory and
 * ingest, and storage against ClickHouse), the noisy-neighbour ones, and every run's correctness.
 */
export function checkTargets(results: BenchResults): TargetCheck[] {
  const single = runsOf(results, "single");
  const largest = single.at(-1);
  const smallest = single[0];
  const checks: TargetCheck[] = largest && smallest ? singleChecks(results, largest, smallest) : [];
  checks.push(...tenantChecks(results));
  checks.push(...noisyChecks(results));
  for (const s of results.sizes) checks.push(correctnessCheck(s));
  return checks;
}

/** The target table in Markdown. */
export function targetsTable(results: BenchResults): string {
  const verdict = (met: boolean | null) => (met === null ? "– not measured" : met ? "✅ met" : "❌ missed");
  return table(
    ["Area", "Target", "Measured", ""],
    checkTargets(results).map((c) => [c.area, c.target, c.measured, verdict(c.met)]),
  );
}

function singleChecks(results: BenchResults, largest: SizeResult, smallest: SizeResult): TargetCheck[] {
  return [
    ...queryChecks(largest),
    ...zoneChecks(largest),
    ...throughputChecks(largest, results.throughputConnections),
    ...(largest !== smallest ? scalingChecks(smallest, largest) : []),
    memoryCheck(largest),
    {
      area: "Ingest",
      target: `≥ 0.8 × bare kafkajs consumer (at ${label(largest)})`,
      measured: `${f(largest.ingest.ratio, 2)} (${f(largest.ingest.worker.rate.eventsPerSecond)} vs ${f(largest.ingest.bare.rate.eventsPerSecond)} events/s)`,
      met: largest.ingest.ratio >= 0.8,
    },
    {
      area: "Freshness",
      target: `produce-to-visible p99 < 1 s (at ${label(largest)})`,
      measured: `p99 ${f(largest.freshness.latency.p99)} ms (p50 ${f(largest.freshness.latency.p50)} ms)`,
      met: largest.freshness.latency.p99 < 1000,
    },
  ];
}

/** The API, PostgreSQL and each engine agree on every query of the run. */
function correctnessCheck(s: SizeResult): TargetCheck {
  const wrong = [
    ...s.queries.filter((q) => q.mismatch !== null).map((q) => `${q.id} (PostgreSQL)`),
    ...s.engines.flatMap((e) =>
      Object.entries(e.queries)
        .filter(([, r]) => r.mismatch !== null)
        .map(([id]) => `${id} (${e.name})`),
    ),
  ];
  const engines = ["PostgreSQL", ...s.engines.map((e) => e.name)].join(", ");
  const empty = s.queries.filter((q) => q.empty).length;
  return {
    area: "Correctness",
    target: `the API, ${engines} return the same numbers (${label(s)})`,
    measured:
      wrong.length === 0
        ? `all ${s.queries.length} queries agree${empty > 0 ? ` (${empty} of them empty on every system)` : ""}`
        : `MISMATCH in ${wrong.join(", ")}`,
    met: wrong.length === 0,
  };
}
