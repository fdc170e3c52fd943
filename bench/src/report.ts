import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "./childService";
import { renderFindings } from "./findings";
import { type ApiVariant, apiVariant, type BenchResults, type SizeResult } from "./results";
import { checkTargets, fasterEngine } from "./targets";

const f = (n: number, digits = 0) =>
  Number.isFinite(n)
    ? n.toLocaleString("en-US", { minimumFractionDigits: digits, maximumFractionDigits: digits })
    : "–";
/** Milliseconds, or "–" when the value is missing (results from before a column existed). */
const ms = (n: number | undefined, digits: number) =>
  n === undefined || !Number.isFinite(n) ? "–" : `${f(n, digits)} ms`;
const times = (n: number | undefined, digits = 1) =>
  n === undefined || !Number.isFinite(n) ? "–" : `×${f(n, digits)}`;
const kib = (bytes: number | undefined) =>
  bytes === undefined || !Number.isFinite(bytes) ? "–" : `${f(bytes / 1024, 1)} KiB`;
const mib = (bytes: number) => `${f(bytes / 2 ** 20, 1)} MiB`;
const label = (size: number) =>
  size >= 1e6 ? `${f(size / 1e6, size % 1e6 === 0 ? 0 : 2)}M` : `${f(size / 1e3)}k`;

function table(header: string[], rows: string[][]): string {
  const line = (cells: string[]) => `| ${cells.join(" | ")} |`;
  return [line(header), line(header.map(() => "---")), ...rows.map(line)].join("\n");
}

function machineSection(r: BenchResults): string {
  const m = r.machine;
  const pgSettings = Object.entries(m.postgresSettings)
    .map(([k, v]) => `${k}=${v}`)
    .join(", ");
  return table(
    ["", ""],
    [
      ["CPU", `${m.cpuModel}, ${m.cores} cores (shared, noisy)`],
      ["Memory", `${f(m.memoryGiB, 1)} GiB`],
      ["Node.js", m.node],
      ["Redis", `${m.redis} (${r.redis}, no persistence)`],
      ["PostgreSQL", `${m.postgres} (${pgSettings}; sessions set work_mem=64MB)`],
      ["Kafka", `${m.kafka} (single broker, 6 partitions per topic)`],
    ],
  );
}

function targetsSection(r: BenchResults): string {
  return table(
    ["Area", "Target", "Measured", ""],
    checkTargets(r).map((c) => [c.area, c.target, c.measured, c.met ? "✅ met" : "❌ missed"]),
  );
}

function datasetSection(r: BenchResults): string {
  return table(
    [
      "Size",
      "Events (all orgs)",
      "Range",
      "Produce",
      "PG COPY",
      "PG index",
      "VACUUM ANALYZE",
      "PG table + index",
    ],
    r.sizes.map((s) => [
      label(s.size),
      f(s.totalEvents),
      `${s.from.slice(0, 16)} → ${s.to.slice(0, 16)}`,
      `${f(s.produce.seconds, 1)} s (${f(s.produce.eventsPerSecond)} events/s)`,
      `${f(s.postgres.copySeconds, 1)} s`,
      `${f(s.postgres.indexSeconds, 1)} s`,
      `${f(s.postgres.analyzeSeconds, 1)} s`,
      `${mib(s.postgres.tableBytes)} + ${mib(s.postgres.indexBytes)}`,
    ]),
  );
}

function ingestSection(r: BenchResults): string {
  const rates = table(
    [
      "Size",
      "Bare kafkajs consumer",
      "Ingest worker",
      "Ratio",
      "Worker CPU",
      "Redis CPU",
      "Machine CPU",
      "Redis time / event",
    ],
    r.sizes.map((s) => {
      const w = s.ingest.worker;
      const evalsha = w.redisCommands.find((c) => c.command === "evalsha");
      const perEvent = evalsha ? `${f(evalsha.usec / Math.max(1, w.metrics.applied), 1)} µs (evalsha)` : "–";
      return [
        label(s.size),
        `${f(s.ingest.bare.rate.eventsPerSecond)} events/s (CPU ${f(s.ingest.bare.cores, 2)} cores)`,
        `${f(w.rate.eventsPerSecond)} events/s`,
        f(s.ingest.ratio, 2),
        `${f(w.cpu.cores.worker ?? 0, 2)} cores`,
        `${f(w.cpu.cores.redis ?? 0, 2)} cores`,
        `${f(w.cpu.machineCores, 2)} of ${r.machine.cores}`,
        perEvent,
      ];
    }),
  );
  const last = r.sizes.at(-1);
  const commands = last
    ? table(
        ["Redis command", "Calls", "Server time", "µs / call"],
        last.ingest.worker.redisCommands.map((c) => [
          c.command,
          f(c.calls),
          `${f(c.usec / 1e6, 2)} s`,
          f(c.usec / c.calls, 2),
        ]),
      )
    : "";
  const profile = last?.ingest.worker.profile;
  const profileTable = profile
    ? `\nWorker CPU profile (self time, \`--profile\`), ${label(last.size)}:\n\n${table(
        ["Function", "Where", "Self"],
        profile.map((p) => [`\`${p.function}\``, `\`${p.location}\``, `${f(p.selfShare * 100, 1)} %`]),
      )}\n`
    : "";
  return `${rates}\n\nRedis commands during the ingest of the ${last ? label(last.size) : ""} data set (commands called from the Lua script are counted too; \`evalsha\` includes them):\n\n${commands}\n${profileTable}`;
}

function memorySection(r: BenchResults): string {
  const sizes = table(
    [
      "Size",
      "used_memory Δ",
      "per million events",
      "dedupe state",
      "per million",
      "rollup blocks",
      "per million",
      "combination table",
    ],
    r.sizes.map((s) => {
      const m = s.memory;
      const combos = m.other.combos;
      return [
        label(s.size),
        mib(m.usedMemoryDelta),
        mib(m.perMillion.total),
        `${mib(m.seen.bytes)} (${f(m.seen.keys)} keys, ${f(m.seen.fields)} ids)`,
        mib(m.perMillion.seen),
        mib(m.rollupBytes),
        mib(m.perMillion.rollups),
        combos ? `${f(combos.fields)} combinations, ${mib(combos.bytes)}` : "–",
      ];
    }),
  );
  const last = r.sizes.at(-1);
  if (last === undefined) return sizes;
  const group = (name: string, g: { keys: number; fields: number; bytes: number }) => [
    name,
    f(g.keys),
    f(g.fields),
    f(g.fields / Math.max(1, g.keys), 1),
    mib(g.bytes),
  ];
  const header = ["", "keys", "cells", "cells per key", "memory"];
  const tiers = table(
    ["Tier", ...header.slice(1)],
    Object.entries(last.memory.tiers).map(([name, g]) => group(name, g)),
  );
  const views = table(
    ["View", ...header.slice(1)],
    Object.entries(last.memory.views).map(([name, g]) => group(name, g)),
  );
  return `${sizes}

\`used_memory Δ\` is Redis' own figure (before/after the ingest); the other columns add up
\`MEMORY USAGE … SAMPLES 0\` of every key under the bench's prefix, so the difference is Redis'
per-key bookkeeping (the expiry table, dictionary overhead). The dedupe state expires after the
dedupe window (7 days); the rest stays (minute blocks 35 days, hour blocks 400 days).

Rollup blocks of the ${label(last.size)} data set by tier (all organizations, all views):

${tiers}

By view (a query reads one view per block: the total, one dimension's projection, or all combinations):

${views}`;
}

function freshnessSection(r: BenchResults): string {
  return table(
    ["Size (already stored)", "Rate", "Events", "p50", "p90", "p99", "max"],
    r.sizes.map((s) => {
      const l = s.freshness.latency;
      return [
        label(s.size),
        `${f(s.freshness.achievedRate)} events/s (target ${f(s.freshness.targetRate)})`,
        f(s.freshness.events),
        `${f(l.p50)} ms`,
        `${f(l.p90)} ms`,
        `${f(l.p99)} ms`,
        `${f(l.max)} ms`,
      ];
    }),
  );
}

function querySection(s: SizeResult, connections: number, cores: number): string {
  return `### ${label(s.size)} recordings\n\n${table(
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
        q.mismatch === null ? "yes" : `**NO**: ${q.mismatch.slice(0, 300)}`,
      ];
    }),
  )}\n\nBoth systems under the same closed loop of ${connections} concurrent clients. 1-minute load
average during the run: ${Object.entries(s.loadAverage)
    .map(([phase, v]) => `${f(v, 1)} (${phase})`)
    .join(", ")} on ${cores} cores.${apiProfileTable(s)}`;
}

function engineSection(s: SizeResult): string {
  if (s.engines.length === 0)
    return `### ${label(s.size)} recordings\n\nDuckDB and ClickHouse were skipped (\`--skip-engines\`).`;
  const names = s.engines.map((e) => e.name);
  return `### ${label(s.size)} recordings\n\n${table(
    [
      "Query",
      "API p50 cached, 1 stream",
      "API p50 computed, 1 stream",
      ...names.flatMap((n) => [`${n} p50`, `${n} p99`]),
      "PostgreSQL p50",
      "API vs faster engine, cached",
      "API vs faster engine, computed",
      "API vs PostgreSQL, cached",
      "API vs PostgreSQL, computed",
    ],
    s.queries.map((q) => {
      const best = fasterEngine(s, q.id);
      const cached = apiVariant(q, "cached");
      const computed = apiVariant(q, "computed");
      // One stream against one stream; results from before it was measured fall back to the loop's.
      const single = (v: ApiVariant | undefined) => v?.single?.p50 ?? v?.run.p50;
      const vsBest = (p50: number | undefined) =>
        best && p50 !== undefined ? `${times(best.p50 / p50)} (${best.name})` : "–";
      return [
        `(${q.id}) ${q.title}`,
        ms(single(cached), 2),
        ms(single(computed), 2),
        ...s.engines.flatMap((e) => {
          const r = e.queries[q.id];
          const wrong = r?.mismatch ? " **NO**" : "";
          return [`${ms(r?.p50, 2)}${wrong}`, ms(r?.p99, 2)];
        }),
        ms(q.postgres.p50, 1),
        vsBest(single(cached)),
        vsBest(single(computed)),
        times(q.speedupP50),
        times(computed?.speedupP50),
      ];
    }),
  )}\n\nLoaded from the same events (CSV written once): ${s.engines
    .map((e) => `${e.name} ${f(e.loadSeconds, 1)} s`)
    .join(", ")}. Each engine runs in the bench's own process, 2 threads, one query at a time
(single stream), and the API's p50 here is one client's alone too (\`--single-duration\` seconds
per query and case), so neither includes queueing; the query table above has the API under
${"`--connections`"} clients, as PostgreSQL is run. **NO** marks an answer that differs from the API's.`;
}

function throughputSection(r: BenchResults): string {
  return r.sizes
    .map(
      (s) =>
        `### ${label(s.size)} recordings\n\n${table(
          ["Target", "req/s", "p50", "p99", "errors", "answer", "cores: API / Redis / load generator"],
          s.throughput.map((t) => [
            t.id === "dimensions" ? "/stats/dimensions (fixed cost)" : `(${t.id})`,
            f(t.requestsPerSecond),
            `${f(t.p50, 1)} ms`,
            `${f(t.p99, 1)} ms`,
            f(t.errors),
            t.responseBytes === undefined ? "–" : `${f(t.responseBytes / 1024, 1)} KiB`,
            t.cores === undefined
              ? "–"
              : `${f(t.cores.api, 2)} / ${f(t.cores.redis, 2)} / ${f(t.cores.loadGenerator, 2)}`,
          ]),
        )}\n\nThe load generator (autocannon) runs in the bench's process on the same cores as the API:
a target where it uses a full core and the API does not is measuring the client.`,
    )
    .join("\n\n");
}

function apiProfileTable(s: SizeResult): string {
  if (!s.apiProfile) return "";
  return `\n\nQuery API CPU profile over all its requests (self time, \`--profile\`):\n\n${table(
    ["Function", "Where", "Self"],
    s.apiProfile.map((p) => [`\`${p.function}\``, `\`${p.location}\``, `${f(p.selfShare * 100, 1)} %`]),
  )}`;
}

function scalingSection(r: BenchResults): string {
  const first = r.sizes[0];
  if (first === undefined || r.sizes.length < 2) return "Only one size was run.";
  const growth = (values: number[]) => times((values.at(-1) ?? Number.NaN) / (values[0] ?? Number.NaN), 2);
  return table(
    [
      "Query",
      ...r.sizes.map((s) => `cached p50 at ${label(s.size)}`),
      "growth",
      ...r.sizes.map((s) => `computed p50 at ${label(s.size)}`),
      "growth",
      ...r.sizes.map((s) => `PG p50 at ${label(s.size)}`),
      "growth",
    ],
    first.queries.map((q) => {
      const at = (s: SizeResult) => s.queries.find((x) => x.id === q.id);
      const cached = r.sizes.map((s) => at(s)?.api.p50 ?? Number.NaN);
      const computed = r.sizes.map((s) => {
        const found = at(s);
        return (found && apiVariant(found, "computed")?.run.p50) ?? Number.NaN;
      });
      const pg = r.sizes.map((s) => at(s)?.postgres.p50 ?? Number.NaN);
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

/** A note when the results predate the computed run (an older results.json re-rendered). */
function legacyNote(r: BenchResults): string {
  const missing = r.sizes.some((s) => s.queries.some((q) => apiVariant(q, "computed") === undefined));
  if (!missing) return "";
  return `\n\nThese results were written before the bench ran each query twice: there is one API run
per query, without a header, shown as "cached" (its same-numbers check asked without a header too);
the computed columns show – and only that run's targets are checked. Whether its answers came from
a kept answer depends on the commit measured: before the result cache (commit cf512c4) every
answer was computed.`;
}

function queryList(r: BenchResults): string {
  const s = r.sizes.at(-1);
  if (s === undefined) return "";
  return s.queries.map((q) => `- (${q.id}) ${q.title}: \`GET ${decodeURIComponent(q.path)}\``).join("\n");
}

/**
 * bench/ANALYSIS.md, the hand-written reading of a full run (profiles, code paths, proposed
 * changes), goes in as it stands: the computed findings say what the numbers are, it says why.
 */
function analysis(): string {
  const file = join(REPO_ROOT, "bench", "ANALYSIS.md");
  return existsSync(file)
    ? `\n### Analysis (hand-written, bench/ANALYSIS.md)\n\n${readFileSync(file, "utf8").trim()}\n`
    : "";
}

/** The whole report, regenerated by every run from its results (numbers only; reading them: README.md). */
export function renderReport(r: BenchResults): string {
  return `# Benchmark report

Generated by \`npm run bench\` (run \`${r.runId}\` of commit \`${r.commit}\`, ${r.startedAt} → ${r.finishedAt}); do not edit by
hand: the next run overwrites it. Raw numbers: \`bench/out/results.json\`. What each number means and
how it is measured: [README.md](README.md).

## Machine

${machineSection(r)}

## Targets

${targetsSection(r)}

## What limits the missed targets

${renderFindings(r)}
${analysis()}
## Data set

One large organization (500 members, 6 voice models, 7 language models + none, 40 apps) with the
size's recordings over 13 months, plus two small organizations with 1 % each; seeded, identical in
Kafka and PostgreSQL (raw table, one covering index on \`(organization_id, recorded_at)\`).

${datasetSection(r)}

## Ingest: Kafka → worker → Redis

From the first event applied to the last, reading a topic already full (catch-up speed). The
worker is the real service (\`services/ingest-worker/src/main.ts\`, child process); the bare consumer
has the worker's consumer settings and discards the messages.

${ingestSection(r)}

## Redis memory

${memorySection(r)}

## Freshness: produce → visible in the API

${freshnessSection(r)}

## Dashboard queries: our API vs PostgreSQL

Each query is run twice against the API: **cached** is the same query repeated, as a dashboard
repeats it, answered from the exact result cache after one HGET of the organization's write stamp;
**computed** sends \`Cache-Control: no-cache\`, so every request is planned, read from the rollups
and summed. The same-numbers check compares a computed answer with PostgreSQL's.${legacyNote(r)}

${r.sizes.map((s) => querySection(s, r.connections, r.machine.cores)).join("\n\n")}

## Embedded analytics engines on the same raw events

A user without this service could load the events into DuckDB (\`@duckdb/node-api\`, in memory,
sorted by organization and time) or ClickHouse (\`chdb\`, a MergeTree ordered by organization and
time, dimensions as LowCardinality strings, as OpenMeter keeps its events) and query them in
process. Both are installed by the bench on first use into \`bench/.engines/\` (chdb is ~550 MB),
never by \`npm test\`. Each answer is compared with the API's.

${r.sizes.map((s) => engineSection(s)).join("\n\n")}

## Throughput: ${r.throughputConnections} connections

autocannon, ${r.throughputConnections} connections for ${r.throughputDurationS} s per target, one after
another (each starts once the API has answered its backlog). The per-token rate limit is raised
for the bench (\`RATE_LIMIT_PER_MINUTE=1000000000\`): the limiter's Redis call stays in every
request, but nothing is refused with 429. Each target repeats one URL without a header, so the
queries are the cached case: answered from the result cache.

${throughputSection(r)}

### Scaling from the smallest to the largest size

${scalingSection(r)}

![Query latency against data set size](latency.png)

### The queries

${queryList(r)}
`;
}
