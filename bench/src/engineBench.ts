import type { DashboardQuery } from "./dashboardQueries";
import { clickhouseSql, openClickHouse } from "./engines/clickhouseEngine";
import { duckdbSql, openDuckDb } from "./engines/duckdbEngine";
import type { EngineStorage, RawEngine } from "./engines/rawEngine";
import type { RawQuery } from "./engines/rawQuery";
import { type LatencySummary, summarize } from "./latencyStats";
import { fmt, log } from "./log";
import { type ComparableAnswer, compareAnswers, fromSql } from "./resultCheck";

export interface EngineQueryResult extends LatencySummary {
  /** null when the engine returned the API's numbers; otherwise the first difference. */
  mismatch: string | null;
}

export interface EngineResult {
  name: string;
  loadSeconds: number;
  /** Bytes on disk of the loaded events, for an engine that keeps them there (ClickHouse). */
  storage?: EngineStorage;
  /** Per dashboard query id. */
  queries: Record<string, EngineQueryResult>;
}

export interface EngineBenchOptions {
  /** Each query runs at least this long and this often, but never longer than the maximum. */
  durationS: number;
  minSamples: number;
  maxDurationS: number;
}

const ENGINES: ReadonlyArray<{ open(csv: string): Promise<RawEngine>; sql(q: RawQuery): string }> = [
  { open: openDuckDb, sql: duckdbSql },
  { open: openClickHouse, sql: clickhouseSql },
];

/** Single stream: the query back to back, as an analyst's notebook or a BI tool's one connection would. */
async function timeQuery(
  engine: RawEngine,
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

/**
 * Each embedded engine in turn: load the raw events, check every query's answer against the API's,
 * time it single-stream, close (so only one engine holds the data at a time).
 */
export async function benchEngines(
  csvFile: string,
  queries: ReadonlyArray<{ query: DashboardQuery; apiAnswer: ComparableAnswer }>,
  options: EngineBenchOptions,
): Promise<EngineResult[]> {
  const results: EngineResult[] = [];
  for (const { open, sql } of ENGINES) {
    const engine = await open(csvFile);
    const stored = engine.storage
      ? `; ${fmt(engine.storage.bytes / 2 ** 20, 1)} MiB on disk, ${fmt(engine.storage.bytes / Math.max(1, engine.storage.rows), 1)} bytes per event`
      : "";
    log(`  ${engine.name}: loaded in ${fmt(engine.loadSeconds, 1)} s${stored}`);
    const result: EngineResult = {
      name: engine.name,
      loadSeconds: engine.loadSeconds,
      ...(engine.storage ? { storage: engine.storage } : {}),
      queries: {},
    };
    try {
      for (const { query, apiAnswer } of queries) {
        const text = sql(query.raw);
        const mismatch = compareAnswers(apiAnswer, fromSql(query, await engine.run(text)));
        if (mismatch) log(`  !!! MISMATCH ${engine.name} (${query.id}): ${mismatch}`);
        const latency = await timeQuery(engine, text, options);
        result.queries[query.id] = { ...latency, mismatch };
        log(`  ${engine.name} (${query.id}) p50 ${fmt(latency.p50, 2)} ms p99 ${fmt(latency.p99, 2)} ms`);
      }
    } finally {
      await engine.close();
    }
    results.push(result);
  }
  return results;
}
