import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderReport } from "./report";
import type { BenchResults } from "./results";

// The committed results of the last run, as `--report-only` reads them.
const committed = JSON.parse(
  readFileSync(join(import.meta.dirname, "fixtures", "results-95441a2d.json"), "utf8"),
) as BenchResults;

describe("renderReport", () => {
  it("says when the results are of a run cut short, and only then", () => {
    const { partial: _, ...complete } = committed;
    expect(renderReport(complete)).not.toMatch(/partial run/);
    expect(renderReport({ ...complete, partial: true })).toMatch(/\*\*A partial run\*\*/);
  });

  it("has its own sections as its only top headings, the hand-written reading below one of them", () => {
    const headings = renderReport(committed).match(/^#{1,2} .*$/gm);
    expect(headings).toEqual([
      "# Benchmark report",
      "## Machine",
      "## Targets",
      "## What limits the missed targets",
      "## Reading of this run (hand-written)",
      "## Data set",
      "## Ingest: Kafka → worker → Redis",
      "## Sizing: cores per 100,000 events/s",
      "## Multi-tenant steady state and new organizations",
      "## Redis memory",
      "## Multi-tenant data set against single-org",
      "## Noisy neighbour: a small organization beside a heavy one",
      "## Freshness: produce → visible in the API",
      "## Dashboard queries: our API vs PostgreSQL",
      "## Dashboard queries under steady ingest",
      "## Peers on the same events: raw scans and rollups",
      `## Throughput: ${committed.throughputConnections} connections`,
    ]);
  });

  it("says next to the cached figures that they are the result cache, measured while nothing writes", () => {
    const report = renderReport(committed);
    expect(report).toMatch(/\*\*\d+ of the \d+ rows met are cached rows\*\*/);
    expect(report).toContain("a kept answer (result cache) against PostgreSQL computing every answer: p50");
    expect(report.match(/its write stamp never moves/g)?.length).toBeGreaterThanOrEqual(3);
  });
});
