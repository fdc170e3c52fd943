import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { EngineResult } from "./engineBench";
import { PEER_NAMES } from "./engines/peerEngine";
import { renderFindings } from "./findings";
import { engineSection } from "./queryReport";
import { apiVariant, type BenchResults, runsOf, type SizeResult } from "./results";
import { MIN_ROLLUP_SPEEDUP } from "./targetBounds";
import { checkTargets, fasterEngine } from "./targets";

// The committed results of the last run, given the rollup peers a run now measures: a ClickHouse
// materialized view whose answers each take twice the API's computed one-stream p50 (under the 3×
// target), and a PostgreSQL rollup table faster than every raw engine.
const committed = JSON.parse(
  readFileSync(join(import.meta.dirname, "fixtures", "results-95441a2d.json"), "utf8"),
) as BenchResults;

const latency = (p50: number) => ({
  samples: 10,
  p50,
  p90: p50,
  p99: p50,
  mean: p50,
  max: p50,
  mismatch: null,
});

function rollupPeers(s: SizeResult): EngineResult[] {
  const computedP50 = (id: string) => {
    const q = s.queries.find((x) => x.id === id);
    const v = q && apiVariant(q, "computed");
    return v?.single?.p50 ?? v?.run.p50 ?? Number.NaN;
  };
  const peer = (name: string, p50Of: (id: string) => number): EngineResult => ({
    name,
    layout: "rollup",
    loadSeconds: 1,
    queries: Object.fromEntries(s.queries.map((q) => [q.id, latency(p50Of(q.id))])),
  });
  return [
    peer(PEER_NAMES.clickhouseRollup, (id) => 2 * computedP50(id)),
    peer(PEER_NAMES.postgresRollup, () => 1e-6),
  ];
}

function withRollups(results: BenchResults): BenchResults {
  const copy = structuredClone(results);
  for (const s of copy.sizes) s.engines.push(...rollupPeers(s));
  return copy;
}

describe("the targets against ClickHouse's materialized view", () => {
  const results = withRollups(committed);
  const largest = runsOf(results, "single").at(-1);
  if (largest === undefined) throw new Error("no single-org run in the committed results");
  const rollupRows = checkTargets(results).filter((c) => c.kind === "rollupSpeedup");

  it("checks every computed query of the largest single-org run, and no cached one", () => {
    expect(rollupRows.map((c) => c.area)).toEqual(largest.queries.map((q) => `Query ${q.id} (computed)`));
    for (const c of rollupRows) {
      expect(c.cached).not.toBe(true);
      expect(c.met).toBe(false);
      expect(c.measured).toMatch(new RegExp(`^×2\\.0 \\(.* ms vs ${PEER_NAMES.clickhouseRollup} `));
      expect(c.target).toContain(
        `≥ ${MIN_ROLLUP_SPEEDUP}× faster than ClickHouse with its materialized view`,
      );
    }
  });

  it("says the target was not measured when the run has no materialized view, in one row", () => {
    const rows = checkTargets(committed).filter((c) => c.kind === "rollupSpeedup");
    expect(rows).toHaveLength(1);
    expect(rows[0]?.met).toBeNull();
  });

  it("keeps the raw-engine target on raw rows: a faster rollup peer is not the faster engine", () => {
    for (const q of largest.queries)
      expect(fasterEngine(largest, q.id)?.name).toMatch(/^(DuckDB|ClickHouse)$/);
  });

  it("explains every miss against the materialized view among the slow queries", () => {
    const findings = renderFindings(results);
    const slow = findings.slice(findings.indexOf("### Queries under"));
    const listed = new Set(
      [...slow.matchAll(/^- \(([^)]+)\) [^\n]*?, (cached|computed):/gm)].map(
        ([, id, v]) => `Query ${id} (${v})`,
      ),
    );
    for (const c of rollupRows) expect(listed).toContain(c.area);
    expect(slow).toContain(`×2.0 ${PEER_NAMES.clickhouseRollup}'s`);
  });

  it("shows each peer's p50 and the API against the materialized view in the peers' table", () => {
    const section = engineSection(largest);
    expect(section).toContain(`| ${PEER_NAMES.clickhouseRollup} p50 |`);
    expect(section).toContain(`| ${PEER_NAMES.postgresRollup} p50 |`);
    expect(section).toContain(`×2.0 (${PEER_NAMES.clickhouseRollup})`);
    expect(section).toContain(`Loaded from the same events: `);
  });
});
