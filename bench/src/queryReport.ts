import type { EngineResult } from "./engineBench";
import { PEER_NAMES } from "./engines/peerEngine";
import { f, kib, ms, recordings, runLabel, sizeLabel, table, times } from "./reportFormat";
import { type ApiVariant, apiVariant, type BenchResults, runsOf, type SizeResult } from "./results";
import { type EngineComparison, engineComparison, rollupComparison } from "./targets";
import { THROUGHPUT_HEADERS, type ThroughputResult } from "./throughputBench";

// The report's per-run query tables: the API against PostgreSQL, against the peers (raw and rollup), the
// 200-connection runs, and the single-org set's scaling.

/** Who a run's queries were asked for, when it names more than one organization (the multi-tenant set). */
function askedFor(s: SizeResult): string {
  const queried = s.queried ?? [];
  if (queried.length < 2) return "";
  const orgs = queried.map((o) => `the ${o.role}, \`${o.organizationId}\` (${recordings(o.recordings)})`);
  return `Asked for ${orgs.join("; ")}; a query's id starts with the organization's role.\n\n`;
}

export function querySection(s: SizeResult, connections: number, cores: number): string {
  return `### ${runLabel(s)}\n\n${askedFor(s)}${table(
    [
      "Query",
      "Rows (page / all)",
      "cached p50",
      "cached p99",
      "computed p50",
      "computed p99",
      "API req/s (cached / computed)",
      "PostgreSQL p50",
      "PostgreSQL p99",
      "PG n",
      "p50 speed-up cached",
      "p50 speed-up computed",
      "API CPU / request cached",
      "API CPU / request computed",
      "from Redis / request (cached / computed)",
      "Same numbers",
    ],
    s.queries.map((q) => {
      const computed = apiVariant(q, "computed");
      return [
        `(${q.id}) ${q.title}`,
        `${f(q.rows)} / ${f(q.totalRows)}`,
        ms(q.api.p50, 2),
        ms(q.api.p99, 2),
        ms(computed?.run.p50, 2),
        ms(computed?.run.p99, 2),
        `${f(q.api.requestsPerSecond)} / ${f(computed?.run.requestsPerSecond ?? Number.NaN)}`,
        ms(q.postgres.p50, 1),
        ms(q.postgres.p99, 1),
        f(q.postgres.samples),
        times(q.speedupP50),
        times(computed?.speedupP50),
        ms(q.cost.apiCpuMs, 2),
        ms(computed?.cost.apiCpuMs, 2),
        `${kib(q.cost.redisBytes)} / ${kib(computed?.cost.redisBytes)}`,
        q.mismatch !== null ? `**NO**: ${q.mismatch.slice(0, 300)}` : q.empty ? "yes (both empty)" : "yes",
      ];
    }),
  )}\n\nBoth systems under the same closed loop of ${connections} concurrent clients. 1-minute load
average during the run: ${Object.entries(s.loadAverage)
    .map(([phase, v]) => `${f(v, 1)} (${phase})`)
    .join(", ")} on ${cores} cores.${apiProfileTable(s)}`;
}

/** A peer's load and what it keeps, for the line under the peers' table. */
function loadNote(e: EngineResult): string {
  const kept = e.storage
    ? `, ${f(e.storage.bytes / 2 ** 20, 1)} MiB on disk in ${f(e.storage.rows)} ${e.layout === "rollup" ? "rollup rows" : "rows"}`
    : "";
  return `${e.name} ${f(e.loadSeconds, 1)} s${kept}`;
}

export function engineSection(s: SizeResult): string {
  const skipped = s.engines.some((e) => e.name === PEER_NAMES.clickhouse)
    ? ""
    : "\n\nDuckDB and both ClickHouse peers were skipped (`--skip-engines`).";
  if (s.engines.length === 0) return `### ${runLabel(s)}${skipped}`;
  const vs = (c: EngineComparison | undefined) => (c ? `${times(c.ratio)} (${c.engine.name})` : "–");
  return `### ${runLabel(s)}\n\n${table(
    [
      "Query",
      "API p50 cached, 1 stream",
      "API p50 computed, 1 stream",
      ...s.engines.flatMap((e) => [`${e.name} p50`, `${e.name} p99`]),
      "PostgreSQL raw p50",
      "API vs faster raw-scan engine, cached",
      "API vs faster raw-scan engine, computed",
      "API vs ClickHouse materialized view, cached",
      "API vs ClickHouse materialized view, computed",
      "API vs PostgreSQL raw, cached",
      "API vs PostgreSQL raw, computed",
    ],
    s.queries.map((q) => {
      const cached = apiVariant(q, "cached");
      const computed = apiVariant(q, "computed");
      const against = (compare: typeof engineComparison, v: ApiVariant | undefined) =>
        v === undefined ? "–" : vs(compare(s, q, v));
      return [
        `(${q.id}) ${q.title}`,
        ms(cached?.single?.p50 ?? cached?.run.p50, 2),
        ms(computed?.single?.p50 ?? computed?.run.p50, 2),
        ...s.engines.flatMap((e) => {
          const r = e.queries[q.id];
          return [`${ms(r?.p50, 2)}${r?.mismatch ? " **NO**" : ""}`, ms(r?.p99, 2)];
        }),
        ms(q.postgres.p50, 1),
        against(engineComparison, cached),
        against(engineComparison, computed),
        against(rollupComparison, cached),
        against(rollupComparison, computed),
        times(q.speedupP50),
        times(computed?.speedupP50),
      ];
    }),
  )}\n\nLoaded from the same events: ${s.engines.map(loadNote).join("; ")}.${skipped} Each peer runs one query
at a time (single stream), the embedded ones in the bench's own process with 2 threads, and the
API's p50 here is one client's alone too (\`--single-duration\` seconds per query and case), so
neither includes queueing; "PostgreSQL raw" is its indexed raw table under \`--connections\`
clients, as in the query table above. **NO** marks an answer that differs from the API's.`;
}

const COMPRESSED_NOTE = ` It asks for compressed answers (\`Accept-Encoding: ${THROUGHPUT_HEADERS["accept-encoding"]}\`, as a browser does); the answer column is one answer's body as sent, with its coding.`;

const loadGeneratorNote = (generator: "wrk" | "autocannon", compressed: boolean) =>
  (generator === "wrk"
    ? "The load generator is wrk (Debian's package), one thread in a process of its own, on the same two cores as the API: its cores are in the last column."
    : "The load generator (autocannon; install `wrk` for a lighter one) runs in the bench's process on the same cores as the API: a target where it uses a full core and the API does not is measuring the client.") +
  (compressed ? COMPRESSED_NOTE : "");

export function throughputSection(r: BenchResults): string {
  return r.sizes
    .filter((s) => s.throughput.length > 0)
    .map(
      (s) =>
        `### ${runLabel(s)}\n\n${table(
          ["Target", "req/s", "p50", "p99", "errors", "answer", "cores: API / Redis / load generator"],
          s.throughput.map((t) => [
            t.id === "dimensions" ? "/stats/dimensions (fixed cost)" : `(${t.id})`,
            f(t.requestsPerSecond),
            `${f(t.p50, 1)} ms`,
            `${f(t.p99, 1)} ms`,
            f(t.errors),
            t.responseBytes === undefined
              ? "–"
              : `${f(t.responseBytes / 1024, 1)} KiB${t.contentEncoding === undefined ? "" : ` (${t.contentEncoding})`}`,
            t.cores === undefined
              ? "–"
              : `${f(t.cores.api, 2)} / ${f(t.cores.redis, 2)} / ${f(t.cores.loadGenerator, 2)}`,
          ]),
        )}\n\n${loadGeneratorNote(
          s.throughput[0]?.loadGenerator ?? "autocannon",
          s.throughput.some((t) => t.contentEncoding !== undefined),
        )}${oneProcessTable(s)}`,
    )
    .join("\n\n");
}

/** One throughput run in a cell: its rate, p99, errors and the API's cores. */
const runCell = (t: ThroughputResult) =>
  `${f(t.requestsPerSecond)} req/s, p99 ${f(t.p99, 1)} ms, ${f(t.errors)} errors, API ${
    t.cores === undefined ? "–" : f(t.cores.api, 2)
  } cores`;

/** Threads or processes: the run's cached targets on one API process beside the cluster. */
function oneProcessTable(s: SizeResult): string {
  const one = s.throughputOneProcess;
  if (one === undefined || one.length === 0) return "";
  const rows = one.map((t) => {
    const all = s.throughput.find((u) => u.id === t.id);
    return [
      t.id === "dimensions" ? "/stats/dimensions" : `(${t.id})`,
      runCell(t),
      all === undefined ? "–" : runCell(all),
      all === undefined || t.requestsPerSecond <= 0
        ? "–"
        : times(all.requestsPerSecond / t.requestsPerSecond),
    ];
  });
  return `\n\n**One request thread or every core.** The same targets against a second API on the same data
with \`API_PROCESSES=1\`. A pool of worker threads (the other way to use every core) takes planning,
reading and summing off the request thread, but what a kept answer costs (HTTP, the token, the
rate limit, sending) stays on it: the one-process rate is the most such a design serves kept
answers at, against the cluster of processes the API runs by default.\n\n${table(
    ["Target", "one process", "every core (default)", "every core ÷ one"],
    rows,
  )}`;
}

function apiProfileTable(s: SizeResult): string {
  if (!s.apiProfile) return "";
  return `\n\nQuery API CPU profile over all its requests (self time, \`--profile\`):\n\n${table(
    ["Function", "Where", "Self"],
    s.apiProfile.map((p) => [`\`${p.function}\``, `\`${p.location}\``, `${f(p.selfShare * 100, 1)} %`]),
  )}`;
}

/** The single set's queries from its smallest size to its largest. */
export function scalingSection(r: BenchResults): string {
  const runs = runsOf(r, "single");
  const first = runs[0];
  if (first === undefined || runs.length < 2) return "Only one size of the single-org data set was run.";
  const growth = (values: number[]) => times((values.at(-1) ?? Number.NaN) / (values[0] ?? Number.NaN), 2);
  return table(
    [
      "Query",
      ...runs.map((s) => `cached p50 at ${sizeLabel(s.size)}`),
      "growth",
      ...runs.map((s) => `computed p50 at ${sizeLabel(s.size)}`),
      "growth",
      ...runs.map((s) => `PG p50 at ${sizeLabel(s.size)}`),
      "growth",
    ],
    first.queries.map((q) => {
      const at = (s: SizeResult) => s.queries.find((x) => x.id === q.id);
      const cached = runs.map((s) => at(s)?.api.p50 ?? Number.NaN);
      const computed = runs.map((s) => {
        const found = at(s);
        return (found && apiVariant(found, "computed")?.run.p50) ?? Number.NaN;
      });
      const pg = runs.map((s) => at(s)?.postgres.p50 ?? Number.NaN);
      return [
        `(${q.id}) ${q.title}`,
        ...cached.map((v) => ms(v, 2)),
        growth(cached),
        ...computed.map((v) => ms(v, 2)),
        growth(computed),
        ...pg.map((v) => ms(v, 1)),
        growth(pg),
      ];
    }),
  );
}
