import { describe, expect, it } from "vitest";
import { apiRun } from "./apiRunFixture";
import type { QueryResult } from "./queryBench";
import type { BenchResults } from "./results";
import { underIngestSection } from "./underIngestReport";

const run = apiRun;

const idle = {
  id: "a",
  api: run(0.4, 0.9),
  postgres: run(90, 99),
  computed: run(4, 8),
  computedCost: {},
} as unknown as QueryResult;

const results = (underIngest?: unknown) =>
  ({
    connections: 4,
    queryDurationS: 3,
    sizes: [{ shape: "single", size: 1_000_000, queries: [idle], ...(underIngest ? { underIngest } : {}) }],
  }) as unknown as BenchResults;

describe("underIngestSection", () => {
  it("puts each query under ingest beside its idle run, with the cache's hit rate and the stream", () => {
    const text = underIngestSection(
      results({
        workerRate: 40_000,
        share: 0.5,
        targetRate: 20_000,
        appliedRate: 19_000,
        sent: 95_000,
        producedRate: 19_800,
        organizations: 6,
        queries: [
          {
            id: "a",
            cached: run(0.5, 1.5),
            computed: run(5, 12),
            lookups: { hit: 97, joined: 1, miss: 2, bypass: 0 },
          },
        ],
      }),
    );
    expect(text).toContain("### 1M single-org");
    expect(text).toContain(
      "Stream: 20,000 events/s asked (50 % of the worker's 40,000 events/s on the\nbacklog), 19,800 events/s produced, 19,000 events/s taken by the worker",
    );
    expect(text).toContain(
      "| a | 0.40 ms / 0.90 ms | 0.50 ms / 1.50 ms | 97.0 % | 4.00 ms / 8.00 ms | 5.00 ms / 12.00 ms | ×1.25 |",
    );
  });

  it("says not run when no data set ran the pass", () => {
    expect(underIngestSection(results())).toContain("Not run (`--skip-under-ingest`");
  });
});
