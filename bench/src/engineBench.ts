import type { DashboardQuery } from "./dashboardQueries";
import { clickhouseSql, openClickHouse } from "./engines/clickhouseEngine";
import { clickhouseRollupSql, openClickHouseRollup } from "./engines/clickhouseRollup";
import { duckdbSql, openDuckDb } from "./engines/duckdbEngine";
import type { EngineSource, EngineStorage, PeerEngine } from "./engines/peerEngine";
import { openPostgresRollup, postgresRollupSql } from "./engines/postgresRollup";
import type { RawQuery } from "./engines/rawQuery";
import { type LatencySummary, summarize } from "./latencyStats";
import { fmt, log } from "./log";
import { type ComparableAnswer, compareAnswers, fromSql } from "./resultCheck";

/** What a peer's queries read: every raw event in range, or a rollup of UTC quarter hours. */
export type PeerLayout = "raw" | "rollup";

export interface EngineQueryResult extends LatencySummary {
  /** null when the engine returned the API's numbers; otherwise the first difference. */
  mismatch: string | null;
}

export interface EngineResult {
  name: string;
  /** Absent in results from before the rollup peers: raw. */
  layout?: PeerLayout;
  loadSeconds: number;
  /** Bytes on disk of what its queries read, for an engine that says (ClickHouse, PostgreSQL). */
  storage?: EngineStorage;
  /** Per dashboard query id. */
  queries: Record<string, EngineQueryResult>;
}

export interface EngineBenchOptions {
  /** Each query runs at least this long and this often, but never longer than the maximum. */
  durationS: number;
  minSamples: number;
  maxDurationS: number;
  /** The engines the bench installs (DuckDB, both ClickHouse peers); off with `--skip-engines`. */
  embedded: boolean;
}

interface Peer {
  layout: PeerLayout;
  /** Installed by the bench into bench/.engines/ (left out by `--skip-engines`). */
  embedded: boolean;
  open(source: EngineSource): Promise<PeerEngine>;
  sql(q: RawQuery, schema: string): string;
}

/** The peers, one loaded at a time: raw scans first, then the rollups a user would build instead. */
const PEERS: readonly Peer[] = [
  { layout: "raw", embedded: true, open: openDuckDb, sql: duckdbSql },
  { layout: "raw", embedded: true, open: openClickHouse, sql: clickhouseSql },
  { layout: "rollup", embedded: true, open: openClickHouseRollup, sql: clickhouseRollupSql },
  { layout: "rollup", embedded: false, open: openPostgresRollup, sql: postgresRollupSql },
];

/** Single stream: the query back to back, as an analyst's notebook or a BI tool's one connection would. */
async function timeQuery(
  engine: PeerEngine,
  sql: string,
  options: EngineBenchOptions,
): Promise<LatencySummary> {
  const times: number[] = [];
  const started = performance.now();
  const elapsedS = () => (performance.now() - started) / 1000;
  while (
    elapsedS() < options.maxDurationS &&
    (elapsedS() < options.durationS || times.length < options.minSamples)
  ) {
    const t0 = performance.now();
    await engine.run(sql);
    times.push(performance.now() - t0);
  }
  return summarize(times);
}

/** One peer: every query's answer checked against the API's, then timed single stream. */
async function benchPeer(
  peer: Peer,
  engine: PeerEngine,
  context: {
    source: EngineSource;
    queries: ReadonlyArray<{ query: DashboardQuery; apiAnswer: ComparableAnswer }>;
    options: EngineBenchOptions;
  },
): Promise<EngineResult["queries"]> {
  const results: EngineResult["queries"] = {};
  for (const { query, apiAnswer } of context.queries) {
    const text = peer.sql(query.raw, context.source.postgres.schema);
    const mismatch = compareAnswers(apiAnswer, fromSql(query, await engine.run(text)));
    if (mismatch) log(`  !!! MISMATCH ${engine.name} (${query.id}): ${mismatch}`);
    const latency = await timeQuery(engine, text, context.options);
    results[query.id] = { ...latency, mismatch };
    log(`  ${engine.name} (${query.id}) p50 ${fmt(latency.p50, 2)} ms p99 ${fmt(latency.p99, 2)} ms`);
  }
  return results;
}

const storageNote = (storage: EngineStorage | undefined) =>
  storage
    ? `; ${fmt(storage.bytes / 2 ** 20, 1)} MiB on disk, ${fmt(storage.rows)} rows (${fmt(storage.bytes / Math.max(1, storage.rows), 1)} bytes per row)`
    : "";

/**
 * Each peer in turn: load (or roll up) the events, check every query's answer against the API's,
 * time it single-stream, close (so only one peer holds the data at a time). The embedded engines
 * only when `options.embedded`.
 */
export async function benchEngines(
  source: EngineSource,
  queries: ReadonlyArray<{ query: DashboardQuery; apiAnswer: ComparableAnswer }>,
  options: EngineBenchOptions,
): Promise<EngineResult[]> {
  const results: EngineResult[] = [];
  for (const peer of PEERS.filter((p) => options.embedded || !p.embedded)) {
    const engine = await peer.open(source);
    log(`  ${engine.name}: loaded in ${fmt(engine.loadSeconds, 1)} s${storageNote(engine.storage)}`);
    try {
      results.push({
        name: engine.name,
        layout: peer.layout,
        loadSeconds: engine.loadSeconds,
        ...(engine.storage ? { storage: engine.storage } : {}),
        queries: await benchPeer(peer, engine, { source, queries, options }),
      });
    } finally {
      await engine.close();
    }
  }
  return results;
}
