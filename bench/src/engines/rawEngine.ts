/**
 * An embedded analytics engine holding the bench's raw events: what a user without our service
 * would query instead. Each answers a `RawQuery` with rows in the shape `fromSql` reads.
 */
export interface RawEngine {
  name: string;
  /** Seconds the load took (CSV into the engine's own storage, sorted as it keeps it). */
  loadSeconds: number;
  /** What the loaded events take on disk, for an engine that keeps them there (ClickHouse). */
  storage?: EngineStorage;
  /** One query, single stream: the rows of the page (or the summary's one row). */
  run(sql: string): Promise<Array<Record<string, unknown>>>;
  close(): Promise<void>;
}

export interface EngineStorage {
  /** Bytes on disk of the raw table (compressed columns, marks, primary index). */
  bytes: number;
  rows: number;
}

/** Threads each engine may use: the machine's two cores, as the API and Redis share them. */
export const ENGINE_THREADS = 2;
