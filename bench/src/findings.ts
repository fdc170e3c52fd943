import { CHUNK_LIMITS } from "@vu/ingest-worker";
import { freshnessCheck } from "./ingestTargets";
import type { QueryResult } from "./queryBench";
import { f } from "./reportFormat";
import {
  type ApiVariant,
  apiVariant,
  apiVariants,
  type BenchResults,
  runsOf,
  type SizeResult,
} from "./results";
import {
  FRESHNESS_LOAD_SHARE,
  MAX_FRESHNESS_P99_MS,
  MAX_SCALING_GROWTH,
  MIN_ENGINE_SPEEDUP,
  MIN_INGEST_RATIO,
  MIN_POSTGRES_SPEEDUP,
  MIN_ROLLUP_SPEEDUP,
} from "./targetBounds";
import type { TargetKind } from "./targetCheck";
import { checkTargets, type EngineComparison, engineComparison, rollupComparison } from "./targets";

/** Where the worker's time per event goes, from its CPU, Redis' CPU and the apply script's server time. */
function ingestFindings(s: SizeResult, cores: number): string[] {
  const w = s.ingest.worker;
  const rate = w.rate.eventsPerSecond;
  const workerCores = w.cpu.cores.worker ?? 0;
  const redisCores = w.cpu.cores.redis ?? 0;
  const nodeUs = (workerCores / rate) * 1e6;
  const redisUs = (redisCores / rate) * 1e6;
  const evalsha = w.redisCommands.find((c) => c.command === "evalsha");
  const scriptUs = evalsha ? evalsha.usec / Math.max(1, w.rate.events) : Number.NaN;
  const bare = s.ingest.bare.rate.eventsPerSecond;
  // At the target ratio the worker takes 1 ÷ ratio of kafkajs' own time per event; the rest is its budget.
  const budgetUs = ((1 / MIN_INGEST_RATIO - 1) / bare) * 1e6;
  const targetRate = MIN_INGEST_RATIO * bare;
  const machineUs = (w.cpu.machineCores / rate) * 1e6;
  const lines = [
    `- **Per event**, the worker process spent ${f(nodeUs, 1)} µs of CPU (Kafka fetch and decoding,
  JSON parsing and validation, aggregation, encoding the batch) and Redis ${f(redisUs, 1)} µs (the
  apply script: ${f(scriptUs, 1)} µs of server time). The whole machine spent ${f(machineUs, 1)} µs per
  event (the Kafka broker and the bench's own probes included).`,
    `- **Overlap**: the worker prepares chunk k+1 (up to ${f(CHUNK_LIMITS.messages)} messages,
  ${f(CHUNK_LIMITS.perKey)} of one organization) while Redis applies chunk k, so the rate is
  bounded by the slower side and by the machine: worker ${f(workerCores, 2)} cores, Redis
  ${f(redisCores, 2)}, the whole machine ${f(w.cpu.machineCores, 2)} of ${cores}. All of an organization's
  events are on one partition (the message key is the organization), so the large organization
  is one stream whatever \`partitionsConsumedConcurrently\` says; a chunk is not overlapped at
  the start and end of each partition batch (32 MiB fetches keep those rare).`,
    `- **The ${MIN_INGEST_RATIO} ratio** leaves ${f(budgetUs, 2)} µs per event on top of what kafkajs itself needs
  (${f(bare)} events/s bare): less than \`JSON.parse\` of one ~400-byte event, while validating,
  aggregating and the apply script cost tens of µs per event on this machine. At ${f(targetRate)}
  events/s the worker, Redis and the broker together would have to spend under
  ${f((cores / targetRate) * 1e6, 1)} µs of CPU per event on ${cores} cores; they spent ${f(machineUs, 1)}.`,
  ];
  const innerUsec = w.redisCommands
    .filter((c) => c.command !== "evalsha" && c.command !== "info" && c.command !== "get")
    .reduce((n, c) => n + c.usec, 0);
  if (evalsha && evalsha.usec > 0) {
    const named = w.redisCommands
      .filter((c) => c.command !== "evalsha" && c.usec > 0.05 * innerUsec)
      .map((c) => `${c.command} ${f(c.usec / 1e6, 1)} s`)
      .join(", ");
    lines.push(`- **Inside the apply script** (${f(evalsha.calls)} calls, ${f(evalsha.usec / 1e6, 1)} s of server time), the
  Redis commands it calls account for ${f(innerUsec / 1e6, 1)} s (${named}); the other
  ${f((1 - innerUsec / evalsha.usec) * 100)} % is the Lua interpreter itself: reading the binary batch with
  \`struct.unpack\`, building the argument tables, and adding each cell that already exists.${
    evalsha.usec / 1e6 > redisCores * w.cpu.seconds * 1.2
      ? ` Server time exceeds Redis' CPU time (${f(redisCores * w.cpu.seconds, 1)} s): Redis waited for a core, the machine was oversubscribed.`
      : ""
  }`);
  }
  const top = (w.profile ?? []).filter((p) => !p.function.startsWith("("));
  if (top.length > 0) {
    lines.push(
      `- **Worker profile** (busy samples only): ${top
        .slice(0, 6)
        .map((p) => `\`${p.function}\` (${p.location}) ${f(p.selfShare * 100, 1)} %`)
        .join(", ")}.`,
    );
  }
  return lines;
}

/** `;\n  one stream 1.20 ms, ×4.1 ClickHouse's 4.90 ms`: the API against one peer, or "". */
const againstPeer = (vs: EngineComparison | undefined) =>
  vs
    ? `;\n  ${vs.singleStream ? "one stream" : "the same loop"} ${f(vs.p50, 2)} ms, ×${f(vs.ratio, 1)} ${vs.engine.name}'s ${f(vs.engine.p50, 2)} ms`
    : "";

/**
 * One query asked one way that misses a speed target: what it cost against PostgreSQL (under the
 * closed loop, as PostgreSQL ran), the faster raw-scan engine and ClickHouse's materialized view
 * (one stream). The API runs a process per core by default (`API_PROCESSES`), so the closed
 * loop's requests share the machine's cores.
 */
function queryFinding(q: QueryResult, v: ApiVariant, run: QueryRun): string {
  const serviceMs = v.cost.apiCpuMs;
  const engine =
    againstPeer(engineComparison(run.largest, q, v)) + againstPeer(rollupComparison(run.largest, q, v));
  return `- (${q.id}) ${q.title}, ${v.name}: API p50 ${f(v.run.p50, 1)} ms under ${run.connections} clients, ×${f(v.speedupP50, 1)} PostgreSQL's ${f(q.postgres.p50, 1)} ms${engine}.
  Per request ${f(serviceMs, 1)} ms of API CPU, ${f(v.cost.redisCpuMs, 1)} ms of Redis CPU and ${f(v.cost.redisBytes / 1024)} KiB read from Redis; with ${run.connections}
  requests in flight on ${run.cores} cores, a request waits for the others' CPU (≈ ${run.connections} ÷ ${run.cores} × ${f(serviceMs, 1)} ms).`;
}

interface QueryRun {
  largest: SizeResult;
  connections: number;
  cores: number;
}

/** The query variants at the largest size that miss the PostgreSQL, the raw-engine or the rollup target. */
function slowFindings(run: QueryRun): string[] {
  return run.largest.queries.flatMap((q) =>
    apiVariants(q)
      .filter((v) => {
        const vsEngine = engineComparison(run.largest, q, v);
        const vsRollup = rollupComparison(run.largest, q, v);
        return (
          v.speedupP50 < MIN_POSTGRES_SPEEDUP ||
          (vsEngine !== undefined && vsEngine.ratio < MIN_ENGINE_SPEEDUP) ||
          (vsRollup !== undefined && vsRollup.ratio < MIN_ROLLUP_SPEEDUP)
        );
      })
      .map((v) => queryFinding(q, v, run)),
  );
}

/** Queries whose p50 at the largest size is more than the scaling bound times the smallest's, and what they read. */
function grewFindings(smallest: SizeResult, largest: SizeResult): string[] {
  if (largest === smallest) return [];
  return largest.queries.flatMap((q) => {
    const small = smallest.queries.find((s) => s.id === q.id);
    if (small === undefined) return [];
    return apiVariants(q).flatMap((v) => {
      const before = apiVariant(small, v.name);
      if (before === undefined || !(v.run.p50 > MAX_SCALING_GROWTH * before.run.p50)) return [];
      const bytesGrowth = v.cost.redisBytes / before.cost.redisBytes;
      return [
        `- (${q.id}) ${q.title}, ${v.name}: p50 ×${f(v.run.p50 / before.run.p50, 2)}; Redis bytes per request ${f(
          before.cost.redisBytes / 1024,
        )} → ${f(v.cost.redisBytes / 1024)} KiB, API CPU ${f(before.cost.apiCpuMs, 1)} → ${f(v.cost.apiCpuMs, 1)} ms${
          bytesGrowth > MAX_SCALING_GROWTH
            ? ": the answer reads more stored cells as the data grows"
            : ": it reads about as much from Redis as before"
        }.`,
      ];
    });
  });
}

/** A missed freshness row: the p99 over its bound, or a producer that could not offer the load. */
function freshnessFinding(s: SizeResult): string {
  const fresh = s.freshness;
  const p99 = fresh.latency.p99;
  const workerRate = fresh.workerRate ?? s.ingest.worker.rate.eventsPerSecond;
  const lines: string[] = [];
  if (p99 >= MAX_FRESHNESS_P99_MS)
    lines.push(`- p99 ${f(p99)} ms: batches waited behind the worker's previous apply.`);
  if (fresh.achievedRate < FRESHNESS_LOAD_SHARE * workerRate)
    lines.push(
      `- The producer reached ${f(fresh.achievedRate)} events/s, under ${f(FRESHNESS_LOAD_SHARE * 100)} % of the worker's ${f(workerRate)}: the bench's one producer could not offer the load beside the worker, Redis and the broker.`,
    );
  return lines.join("\n");
}

/** The targets whose misses renderFindings explains with a section of its own. */
const EXPLAINED: ReadonlySet<TargetKind> = new Set([
  "ingest",
  "postgresSpeedup",
  "engineSpeedup",
  "rollupSpeedup",
  "scaling",
  "freshness",
]);

/**
 * The "what limits it" part of the report, written from the numbers of this run: for each missed
 * target of the single-org data set, the measurements that locate the bottleneck. Each section
 * tests the bound its target row tests (targetBounds.ts).
 */
export function renderFindings(r: BenchResults): string {
  const missed = checkTargets(r).filter((c) => c.met === false);
  if (missed.length === 0) return `Every target was met.${noiseNote(r)}`;
  const single = runsOf(r, "single");
  const largest = single.at(-1);
  const smallest = single[0];
  const sections: string[] = [];
  if (largest !== undefined && smallest !== undefined) {
    const cores = r.machine.cores;
    if (largest.ingest.ratio < MIN_INGEST_RATIO)
      sections.push(`### Ingest\n\n${ingestFindings(largest, cores).join("\n")}`);
    // Both ways the API is asked (cached, computed) are looked at; older results hold only the first.
    const slow = slowFindings({ largest, connections: r.connections, cores });
    if (slow.length > 0)
      sections.push(
        `### Queries under ${MIN_POSTGRES_SPEEDUP} × PostgreSQL, ${MIN_ENGINE_SPEEDUP} × the faster raw-scan engine or ${MIN_ROLLUP_SPEEDUP} × ClickHouse's materialized view\n\n${slow.join("\n")}`,
      );
    const grew = grewFindings(smallest, largest);
    if (grew.length > 0)
      sections.push(
        `### Queries whose p50 grew more than ${MAX_SCALING_GROWTH} × with the data\n\n${grew.join("\n")}`,
      );
    if (freshnessCheck(largest).met === false) sections.push(`### Freshness\n\n${freshnessFinding(largest)}`);
  }
  const unexplained = missed.filter((c) => !EXPLAINED.has(c.kind));
  if (unexplained.length > 0)
    sections.push(
      `### Missed, with no computed finding\n\n${unexplained
        .map((c) => `- ${c.area}: ${c.target}; measured ${c.measured}.`)
        .join("\n")}\n\nTheir sections below have the numbers; the hand-written reading says why.`,
    );
  return `${sections.join("\n\n")}${noiseNote(r)}`;
}

function noiseNote(r: BenchResults): string {
  const load = Math.max(...r.sizes.flatMap((s) => Object.values(s.loadAverage)));
  return load > r.machine.cores
    ? `\n\nThe machine's 1-minute load average reached ${f(load, 1)} on ${r.machine.cores} cores during the run: other work competed for the CPU, so absolute numbers are pessimistic; the per-event and per-request costs above are the more stable figures.`
    : "";
}
