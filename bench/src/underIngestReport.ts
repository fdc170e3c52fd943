import { hitRate } from "./cacheLookups";
import { f, ms, runLabel, table, times } from "./reportFormat";
import { apiVariant, type BenchResults, type SizeResult } from "./results";
import type { UnderIngestResult } from "./underIngest";

/** `2.10 ms / 4.30 ms`: a run's p50 and p99. */
const p50p99 = (run: { p50: number; p99: number } | undefined) =>
  run === undefined ? "–" : `${ms(run.p50, 2)} / ${ms(run.p99, 2)}`;

function passTable(s: SizeResult, pass: UnderIngestResult): string {
  const rows = pass.queries.map((under) => {
    const idle = s.queries.find((q) => q.id === under.id);
    const computed = idle ? apiVariant(idle, "computed")?.run : undefined;
    return [
      under.id,
      p50p99(idle?.api),
      p50p99(under.cached),
      `${f(hitRate(under.lookups) * 100, 1)} %`,
      p50p99(computed),
      p50p99(under.computed),
      times(computed ? under.computed.p50 / computed.p50 : undefined, 2),
    ];
  });
  return table(
    [
      "Query",
      "cached idle p50 / p99",
      "cached under ingest",
      "hit rate",
      "computed idle p50 / p99",
      "computed under ingest",
      "computed p50 ×",
    ],
    rows,
  );
}

function passSection(s: SizeResult, pass: UnderIngestResult): string {
  return `### ${runLabel(s)}

Stream: ${f(pass.targetRate)} events/s asked (${f(pass.share * 100)} % of the worker's ${f(pass.workerRate)} events/s on the
backlog)${pass.producedRate === undefined ? "" : `, ${f(pass.producedRate)} events/s produced`}, ${f(pass.appliedRate)} events/s taken by the worker while the queries ran,
over ${pass.organizations} organizations of its own; ${f(pass.sent)} events sent, every one applied before the next step.

${passTable(s, pass)}`;
}

/**
 * The dashboard queries asked again while the worker applies a steady stream, beside their idle
 * runs, with the result cache's hit rate during each cached run.
 */
export function underIngestSection(r: BenchResults): string {
  const passes = r.sizes.flatMap((s) => (s.underIngest ? [passSection(s, s.underIngest)] : []));
  if (passes.length === 0)
    return "Not run (`--skip-under-ingest`, or results from before the bench measured it).";
  return `Each data set's dashboard queries asked again in the closed loop of the query tables
(${r.connections} connections, ${r.queryDurationS} s per query and case), while a child process produces new
recordings for organizations of their own and the worker applies them. Idle is the query table's
run of the same query; the hit rate is the result cache's hits ÷ lookups during the cached run
(the API's \`vu_result_cache_lookups_total\`).

${passes.join("\n\n")}`;
}
