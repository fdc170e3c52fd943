import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { renderReport } from "./report";
import type { BenchResults } from "./results";

// The committed results of the last run, as `--report-only` reads them.
const committed = JSON.parse(
  readFileSync(join(import.meta.dirname, "..", "results.json"), "utf8"),
) as BenchResults;

describe("renderReport", () => {
  it("says when the results are of a run cut short, and only then", () => {
    const { partial: _, ...complete } = committed;
    expect(renderReport(complete)).not.toMatch(/partial run/);
    expect(renderReport({ ...complete, partial: true })).toMatch(/\*\*A partial run\*\*/);
  });
});
