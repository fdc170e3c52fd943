import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderFindings } from "./findings";
import type { BenchResults } from "./results";
import {
  FRESHNESS_LOAD_SHARE,
  FRESHNESS_SUSTAIN_S,
  MAX_FRESHNESS_P99_MS,
  MAX_SCALING_GROWTH,
  MIN_ENGINE_SPEEDUP,
  MIN_POSTGRES_SPEEDUP,
  MIN_ROLLUP_SPEEDUP,
} from "./targetBounds";
import type { TargetCheck, TargetKind } from "./targetCheck";
import { checkTargets } from "./targets";

// The committed results of the last run, as `--report-only` reads them.
const committed = JSON.parse(
  readFileSync(join(import.meta.dirname, "fixtures", "results-95441a2d.json"), "utf8"),
) as BenchResults;

/** The `### ` section of the findings whose heading starts with `title`, or "". */
function section(findings: string, title: string): string {
  const start = findings.indexOf(`### ${title}`);
  if (start < 0) return "";
  const end = findings.indexOf("\n### ", start + 4);
  return findings.slice(start, end < 0 ? undefined : end);
}

/** `Query b (computed)` of each missed row of these kinds. */
const missedAreas = (checks: TargetCheck[], kinds: TargetKind[]) =>
  new Set(checks.filter((c) => c.met === false && kinds.includes(c.kind)).map((c) => c.area));

/** `Query b (computed)` of each entry of a findings section (`- (b) title, computed: …`). */
const listedAreas = (text: string) =>
  new Set(
    [...text.matchAll(/^- \(([^)]+)\) [^\n]*?, (cached|computed):/gm)].map(
      ([, id, v]) => `Query ${id} (${v})`,
    ),
  );

/** Every figure the findings' headings name with a ×: each must be a target's bound. */
const headingMultiples = (findings: string) =>
  [...findings.matchAll(/^### .*$/gm)].flatMap(([heading]) =>
    [...heading.matchAll(/(\d+(?:\.\d+)?) ?×/g)].map(([, n]) => Number(n)),
  );

describe("renderFindings", () => {
  const checks = checkTargets(committed);
  const findings = renderFindings(committed);

  it("names in its headings the bounds the target table checks", () => {
    expect(findings).toContain(
      `### Queries under ${MIN_POSTGRES_SPEEDUP} × PostgreSQL, ${MIN_ENGINE_SPEEDUP} × the faster raw-scan engine or ${MIN_ROLLUP_SPEEDUP} × ClickHouse's materialized view`,
    );
    expect(findings).toContain(`### Queries whose p50 grew more than ${MAX_SCALING_GROWTH} × with the data`);
    expect(headingMultiples(findings).sort()).toEqual(
      [MIN_POSTGRES_SPEEDUP, MIN_ENGINE_SPEEDUP, MIN_ROLLUP_SPEEDUP, MAX_SCALING_GROWTH].sort(),
    );
  });

  it("explains exactly the query rows the table misses against PostgreSQL or the engines", () => {
    const listed = listedAreas(section(findings, "Queries under"));
    expect(listed.size).toBeGreaterThan(0);
    expect(listed).toEqual(missedAreas(checks, ["postgresSpeedup", "engineSpeedup", "rollupSpeedup"]));
  });

  it("explains exactly the scaling rows the table misses", () => {
    const listed = listedAreas(section(findings, "Queries whose p50 grew"));
    expect(listed.size).toBeGreaterThan(0);
    expect(listed).toEqual(missedAreas(checks, ["scaling"]));
  });

  it("lists every other missed row as having no computed finding", () => {
    const rest = section(findings, "Missed, with no computed finding");
    const others = checks.filter(
      (c) =>
        c.met === false &&
        !["postgresSpeedup", "engineSpeedup", "rollupSpeedup", "scaling", "ingest", "freshness"].includes(
          c.kind,
        ),
    );
    expect(others.length).toBeGreaterThan(0);
    for (const c of others) expect(rest).toContain(`- ${c.area}: ${c.target}`);
  });

  it("explains ingest and freshness exactly when their rows are missed", () => {
    const stale = structuredClone(committed);
    const largest = stale.sizes.filter((s) => (s.shape ?? "single") === "single").at(-1);
    if (largest === undefined) throw new Error("no single-org run in the committed results");
    largest.freshness.latency.p99 = MAX_FRESHNESS_P99_MS;
    // Sustained for the target's duration at its load, so the row has a verdict.
    largest.freshness.durationS = FRESHNESS_SUSTAIN_S;
    largest.freshness.achievedRate = FRESHNESS_LOAD_SHARE * largest.ingest.worker.rate.eventsPerSecond;
    const missed = (kind: TargetKind) => checkTargets(stale).some((c) => c.kind === kind && c.met === false);
    const text = renderFindings(stale);
    expect(missed("freshness")).toBe(true);
    expect(section(text, "Freshness")).toContain(`p99 ${MAX_FRESHNESS_P99_MS.toLocaleString("en-US")} ms`);
    expect(missed("ingest")).toBe(section(text, "Ingest") !== "");
    expect(section(findings, "Freshness")).toBe("");
  });

  it("does not say every target was met while the table misses one", () => {
    expect(checks.some((c) => c.met === false)).toBe(true);
    expect(findings).not.toContain("Every target was met");
  });
});
