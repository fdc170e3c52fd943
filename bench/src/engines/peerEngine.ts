/**
 * What a user without our service would query instead, holding the bench's events: an engine that
 * scans the raw events on every question (DuckDB, ClickHouse), or one that keeps them rolled up
 * by UTC quarter hour (ClickHouse's materialized view, a PostgreSQL rollup table). Each answers a
 * `RawQuery` with rows in the shape `fromSql` reads.
 */
export interface PeerEngine {
  name: string;
  /** Seconds the load took (into the engine's own storage, sorted and rolled up as it keeps them). */
  loadSeconds: number;
  /** What the engine keeps on disk, for one that says (ClickHouse: the table its queries read). */
  storage?: EngineStorage;
  /** One query, single stream: the rows of the page (or the summary's one row). */
  run(sql: string): Promise<Array<Record<string, unknown>>>;
  close(): Promise<void>;
}

export interface EngineStorage {
  /**
   * Bytes on disk of what the queries read: ClickHouse's table (compressed columns, marks, primary
   * index), PostgreSQL's table and its index.
   */
  bytes: number;
  /** Its rows: events for a raw table, (organization, quarter hour, combination) rows for a rollup. */
  rows: number;
}

/** Where the peers load from: the raw events as CSV (written once) and PostgreSQL's raw table. */
export interface EngineSource {
  csvFile: string;
  postgres: { url: string; schema: string };
}

/** The peers' names, as the results and the report know them. */
export const PEER_NAMES = {
  duckdb: "DuckDB",
  clickhouse: "ClickHouse",
  clickhouseRollup: "ClickHouse materialized view",
  postgresRollup: "PostgreSQL rollup table",
} as const;

/** Threads each engine may use: the machine's two cores, as the API and Redis share them. */
export const ENGINE_THREADS = 2;
