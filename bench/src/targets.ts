import type { BenchResults, SizeResult } from "./results";

export interface TargetCheck {
  area: string;
  target: string;
  measured: string;
  /** The measured value relative to the target's threshold, in the target's direction. */
  met: boolean;
}

const f = (n: number, digits = 0) =>
  n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits });

/**
 * The goals of the brief, checked on the largest size measured (and, for scaling, the largest
 * against the smallest). Query targets are checked per query: each must meet them.
 */
export function checkTargets(results: BenchResults): TargetCheck[] {
  const largest = results.sizes.at(-1);
  const smallest = results.sizes[0];
  if (largest === undefined || smallest === undefined) return [];
  const label = (s: SizeResult) => `${f(s.size / 1e6, s.size < 1e6 ? 2 : 0)}M`;
  const checks: TargetCheck[] = [
    {
      area: "Ingest",
      target: `≥ 0.8 × bare kafkajs consumer (at ${label(largest)})`,
      measured: `${f(largest.ingest.ratio, 2)} (${f(largest.ingest.worker.rate.eventsPerSecond)} vs ${f(largest.ingest.bare.rate.eventsPerSecond)} events/s)`,
      met: largest.ingest.ratio >= 0.8,
    },
    {
      area: "Ingest",
      target: `≥ 50,000 events/s (at ${label(largest)})`,
      measured: `${f(largest.ingest.worker.rate.eventsPerSecond)} events/s`,
      met: largest.ingest.worker.rate.eventsPerSecond >= 50_000,
    },
  ];
  for (const q of largest.queries) {
    checks.push({
      area: `Query ${q.id}`,
      target: `p50 ≥ 50× faster than PostgreSQL (at ${label(largest)})`,
      measured: `×${f(q.speedupP50, 1)} (${f(q.api.p50, 2)} ms vs ${f(q.postgres.p50, 1)} ms)`,
      met: q.speedupP50 >= 50,
    });
  }
  if (largest !== smallest) {
    for (const q of largest.queries) {
      const small = smallest.queries.find((s) => s.id === q.id);
      if (small === undefined) continue;
      const growth = q.api.p50 / small.api.p50;
      checks.push({
        area: `Query ${q.id}`,
        target: `p50 at ${label(largest)} ≤ 1.5 × p50 at ${label(smallest)}`,
        measured: `×${f(growth, 2)} (${f(small.api.p50, 2)} → ${f(q.api.p50, 2)} ms)`,
        met: growth <= 1.5,
      });
    }
  }
  checks.push({
    area: "Freshness",
    target: `produce-to-visible p99 < 1 s (at ${label(largest)})`,
    measured: `p99 ${f(largest.freshness.latency.p99)} ms (p50 ${f(largest.freshness.latency.p50)} ms)`,
    met: largest.freshness.latency.p99 < 1000,
  });
  for (const s of results.sizes) {
    const wrong = s.queries.filter((q) => q.mismatch !== null).map((q) => q.id);
    checks.push({
      area: "Correctness",
      target: `API and PostgreSQL return the same numbers (${label(s)})`,
      measured: wrong.length === 0 ? "all 5 queries agree" : `MISMATCH in ${wrong.join(", ")}`,
      met: wrong.length === 0,
    });
  }
  return checks;
}
