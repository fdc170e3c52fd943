import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { analysisOf } from "./analysisSection";
import { CACHED_WHILE_NOTHING_WRITES } from "./cachedNote";
import { REPO_ROOT } from "./childService";
import { renderFindings } from "./findings";
import { sizingSection, steadySection } from "./ingestReport";
import { SIZING_RATE } from "./ingestSizing";
import { noisySection } from "./noisyReport";
import { engineSection, querySection, scalingSection, throughputSection } from "./queryReport";
import { f, runLabel, table } from "./reportFormat";
import { apiVariant, type BenchResults, runsOf, type SizeResult } from "./results";
import { targetsTable } from "./targets";
import { tenantSection } from "./tenantReport";
import { underIngestSection } from "./underIngestReport";

const mib = (bytes: number) => `${f(bytes / 2 ** 20, 1)} MiB`;

/** What the multi-tenant data set is, if the run has one. */
function manyNote(r: BenchResults): string {
  const many = runsOf(r, "many")[0];
  if (many === undefined) return "";
  return `\n**Multi-tenant**: the size's recordings over the same 13 months shared by ${f(many.organizations ?? Number.NaN)}
organizations with Zipf sizes (the largest 10 %), all interleaved in time in one topic (see README.md).`;
}

/** The largest run of each shape the results hold (the tables of one run's details show these). */
const largestRuns = (r: BenchResults): SizeResult[] =>
  (["single", "many"] as const).flatMap((shape) => runsOf(r, shape).slice(-1));

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

function datasetSection(r: BenchResults): string {
  return table(
    [
      "Data set",
      "Organizations",
      "Events (all orgs)",
      "Range",
      "Produce",
      "PG COPY",
      "PG index",
      "VACUUM ANALYZE",
      "PG table + index",
    ],
    r.sizes.map((s) => [
      runLabel(s),
      f(s.organizations ?? 3),
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
      "Data set",
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
        runLabel(s),
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
  return [rates, ...largestRuns(r).map(ingestDetails)].join("\n\n");
}

/** One run's Redis commands during the ingest, and the worker's profile if taken. */
function ingestDetails(last: SizeResult): string {
  const commands = table(
    ["Redis command", "Calls", "Server time", "µs / call"],
    last.ingest.worker.redisCommands.map((c) => [
      c.command,
      f(c.calls),
      `${f(c.usec / 1e6, 2)} s`,
      f(c.usec / c.calls, 2),
    ]),
  );
  const profile = last.ingest.worker.profile;
  const profileTable = profile
    ? `\n\nWorker CPU profile (self time, \`--profile\`), ${runLabel(last)}:\n\n${table(
        ["Function", "Where", "Self"],
        profile.map((p) => [`\`${p.function}\``, `\`${p.location}\``, `${f(p.selfShare * 100, 1)} %`]),
      )}`
    : "";
  return `Redis commands during the ingest of the ${runLabel(last)} data set (commands called from the Lua script are counted too; \`evalsha\` includes them):\n\n${commands}${profileTable}`;
}

function memorySection(r: BenchResults): string {
  const sizes = table(
    [
      "Data set",
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
        runLabel(s),
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
  return [sizes, MEMORY_NOTE, ...largestRuns(r).map(memoryDetails)].join("\n\n");
}

const MEMORY_NOTE = `\`used_memory Δ\` is Redis' own figure (before/after the ingest); the other columns add up
\`MEMORY USAGE … SAMPLES 0\` of every key under the bench's prefix, so the difference is Redis'
per-key bookkeeping (the expiry table, dictionary overhead). The dedupe state expires after the
dedupe window (7 days); the rest stays (minute blocks 35 days, hour blocks 400 days).`;

/** One run's rollup keys by tier and by view. */
function memoryDetails(last: SizeResult): string {
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
  const projections = table(
    ["Projection", ...header.slice(1)],
    Object.entries(last.memory.views).map(([name, g]) => group(name, g)),
  );
  return `Rollup keys of the ${runLabel(last)} data set by tier (all organizations, all projections):

${tiers}

By projection (a query reads one projection per block: the total, one dimension's, or all
combinations; a sparse tier keeps its blocks' cells in period containers, a keyed tier all
combinations of a block in one key):

${projections}`;
}

/** An interval the runs recorded, `250 ms` (or each distinct one); undefined when a run did not record it. */
function recordedInterval(values: ReadonlyArray<number | undefined>): string | undefined {
  if (values.length === 0 || values.some((v) => v === undefined)) return undefined;
  return `${[...new Set(values)].map((v) => f(v ?? Number.NaN)).join(" / ")} ms`;
}

/** How the worker's rate was timed: its /metrics read at the interval the results record. */
function ingestTiming(r: BenchResults): string {
  const poll = recordedInterval(r.sizes.map((s) => s.ingest.worker.metricsPollMs));
  return poll === undefined
    ? "These results do not record how often the worker's `/metrics` was read."
    : `The worker's applied events are read from its \`/metrics\` every ${poll}, so each end of the
window is known to within that.`;
}

function freshnessSection(r: BenchResults): string {
  const poll = recordedInterval(r.sizes.map((s) => s.freshness.pollIntervalMs));
  const batches = recordedInterval(r.sizes.map((s) => s.freshness.batchIntervalMs));
  const how =
    poll === undefined || batches === undefined
      ? ""
      : `\n\nA batch every ${batches} for an organization of its own, while the API's summary for it is asked every
${poll}: a batch is visible at the first answer that counts it, so each figure is within ${poll} of the truth.`;
  return `${table(
    ["Data set (already stored)", "Rate", "Events", "p50", "p90", "p99", "max"],
    r.sizes.map((s) => {
      const l = s.freshness.latency;
      return [
        runLabel(s),
        `${f(s.freshness.achievedRate)} events/s (target ${f(s.freshness.targetRate)})`,
        f(s.freshness.events),
        `${f(l.p50)} ms`,
        `${f(l.p90)} ms`,
        `${f(l.p99)} ms`,
        `${f(l.max)} ms`,
      ];
    }),
  )}${how}`;
}

/** A note when the results predate the computed run (an older results.json re-rendered). */
function legacyNote(r: BenchResults): string {
  const missing = r.sizes.some((s) => s.queries.some((q) => apiVariant(q, "computed") === undefined));
  if (!missing) return "";
  return `\n\nThese results were written before the bench ran each query twice: there is one API run
per query, without a header, shown as "cached" (its same-numbers check asked without a header too);
the computed columns show – and only that run's targets are checked. Whether its answers came from
a kept answer depends on the commit measured: before the result cache (commit 37d92e3) every
answer was computed.`;
}

/** The requests of the largest run of each shape (the multi-tenant set's differ by organization). */
function queryList(r: BenchResults): string {
  return largestRuns(r)
    .flatMap((s) => s.queries)
    .map((q) => `- (${q.id}) ${q.title}: \`GET ${decodeURIComponent(q.path)}\``)
    .join("\n");
}

/**
 * The hand-written reading of this run from bench/ANALYSIS.md (profiles, code paths, proposed
 * changes): the computed findings say what the numbers are, it says why.
 */
function analysis(runId: string): string {
  const file = join(REPO_ROOT, "bench", "ANALYSIS.md");
  return analysisOf(existsSync(file) ? readFileSync(file, "utf8") : undefined, runId);
}

/** The whole report, regenerated by every run from its results (numbers only; reading them: README.md). */
export function renderReport(r: BenchResults): string {
  return `# Benchmark report

Generated by \`npm run bench\` (run \`${r.runId}\` of commit \`${r.commit}\`, ${r.startedAt} → ${r.finishedAt}); do not edit by
hand: the next run overwrites it. Raw numbers: \`bench/results.json\`. What each number means and
how it is measured: [README.md](README.md).
${r.partial ? "\n**A partial run**: it stopped before its last data set; only the data sets below were measured.\n" : ""}
## Machine

${machineSection(r)}

## Targets

${targetsTable(r)}

## What limits the missed targets

${renderFindings(r)}

## Reading of this run (hand-written)

${analysis(r.runId)}

## Data set

**Single-org**: one large organization (500 members, 6 voice models, 7 language models + none, 40
apps) with the size's recordings over 13 months, plus two small organizations with 1 % each.${manyNote(r)}
Seeded, identical in Kafka, PostgreSQL (raw table, one covering index on
\`(organization_id, recorded_at)\`; and a rollup table made from it), DuckDB and ClickHouse (raw
table; and raw table with a materialized view).

${datasetSection(r)}

## Ingest: Kafka → worker → Redis

From the first event applied to the last, reading a topic already full (catch-up speed). The
worker is the real service (\`services/ingest-worker/src/main.ts\`, child process); the bare consumer
has the worker's consumer settings and discards the messages.
${ingestTiming(r)}

${ingestSection(r)}

## Sizing: cores per ${f(SIZING_RATE)} events/s

${sizingSection(r)}

## Multi-tenant steady state and new organizations

${steadySection(r)}

## Redis memory

${memorySection(r)}

## Multi-tenant data set against single-org

${tenantSection(r)}

## Noisy neighbour: a small organization beside a heavy one

${noisySection(r)}

## Freshness: produce → visible in the API

${freshnessSection(r)}

## Dashboard queries: our API vs PostgreSQL

Each query is run twice against the API: **cached** is the same query repeated, as a dashboard
repeats it, answered from the exact result cache after one HMGET of the organization's write stamp;
**computed** sends \`Cache-Control: no-cache\`, so every request is planned, read from the rollups
and summed, as PostgreSQL computes every answer. The same-numbers check compares a computed answer
with PostgreSQL's.${legacyNote(r)}

${CACHED_WHILE_NOTHING_WRITES}

${r.sizes.map((s) => querySection(s, r.connections, r.machine.cores)).join("\n\n")}

## Dashboard queries under steady ingest

${underIngestSection(r)}

## Peers on the same events: raw scans and rollups

What a user without this service would build instead, on the same events, each answer compared
with the API's:

- **DuckDB** (\`@duckdb/node-api\`, in memory, sorted by organization and time) and **ClickHouse**
  (\`chdb\`, a MergeTree ordered by organization and time, dimensions as LowCardinality strings, as
  OpenMeter keeps its events) scan the raw rows in range on every question.
- **ClickHouse materialized view**: the same raw table, with a materialized view that sums each
  block inserted into it into a SummingMergeTree keyed by organization, UTC quarter hour and
  combination (member, voice model, language model, app), keeping the count, the sums of words and
  durations, and the sum and count of the non-null processing times (the averages are over those);
  merged to one part after the load. Its queries sum the rows in range by bucket and group (a
  SummingMergeTree sums a key's rows only when its parts merge), each quarter bucketed by its start
  in the query's zone: exact in every zone whose offsets are whole quarter hours (Berlin, Kolkata).
- **PostgreSQL rollup table**: the same rollup, made from PostgreSQL's raw table by one
  \`INSERT … SELECT … GROUP BY\` after the load, indexed on \`(organization_id, quarter)\`, asked over
  one connection. PostgreSQL's indexed raw table is the query table's peer above.

DuckDB and chdb are installed by the bench on first use into \`bench/.engines/\` (chdb is ~550 MB),
never by \`npm test\`. Every peer computes every answer: ClickHouse's query cache, which would keep
answers as the API's result cache does, cannot be used in chDB (it embeds clickhouse-local, which
sets the query cache up with no room: \`use_query_cache\` is accepted and nothing is kept). So the
cached columns are the API's kept answers (its result cache, while nothing writes) against peers
that compute, and only the computed columns compare the store with each peer; the target against
the materialized view is checked on those.

${r.sizes.map((s) => engineSection(s)).join("\n\n")}

## Throughput: ${r.throughputConnections} connections

${r.throughputConnections} connections (wrk when installed, else autocannon) for ${r.throughputDurationS} s per target, one after
another (each starts once the API has answered its backlog). The per-token rate limit is raised
for the bench (\`RATE_LIMIT_PER_MINUTE=1000000000\`): the limiter's Redis call stays in every
request, but nothing is refused with 429. Each target repeats one URL without \`Cache-Control\`, so
the queries are the cached case: answered from the result cache, while nothing writes to the
organization (its write stamp never moves): the rate of kept answers, not of a dashboard whose
organization is being written. Single-org data sets only.

${throughputSection(r)}

### Scaling from the smallest to the largest size (single-org)

The cached columns are kept answers (the result cache), whose cost does not depend on the data;
the computed ones read and sum the rollups.

${scalingSection(r)}

![Query latency against data set size](latency.png)

### The queries

${queryList(r)}
`;
}
