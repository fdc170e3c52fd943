import { importEngine } from "./engineInstall";
import { ENGINE_THREADS, type EngineSource, PEER_NAMES, type PeerEngine } from "./peerEngine";
import { RAW_COLUMNS } from "./rawEventsCsv";
import { groupOrder, offsetOf, type RawQuery, sqlList, sqlString } from "./rawQuery";

/** The parts of `@duckdb/node-api` the bench uses (it is installed outside the workspace, untyped here). */
interface DuckDbApi {
  DuckDBInstance: {
    create(
      path: string,
      options: Record<string, string>,
    ): Promise<{
      connect(): Promise<{
        runAndReadAll(sql: string): Promise<{ getRowObjectsJS(): Array<Record<string, unknown>> }>;
        closeSync(): void;
      }>;
      closeSync(): void;
    }>;
  };
}

const TYPES: Record<(typeof RAW_COLUMNS)[number], string> = {
  organization_id: "VARCHAR",
  recording_id: "VARCHAR",
  member_email: "VARCHAR",
  voice_model: "VARCHAR",
  language_model: "VARCHAR",
  app_name: "VARCHAR",
  recorded_at: "TIMESTAMPTZ",
  duration_ms: "BIGINT",
  word_count: "BIGINT",
  voice_processing_ms: "BIGINT",
  llm_processing_ms: "BIGINT",
};

const ROW_METRICS = `
  count(*)::BIGINT AS recording_count,
  sum(word_count)::BIGINT AS total_words,
  sum(duration_ms)::BIGINT AS total_duration,
  coalesce(round(avg(llm_processing_ms), 3), 0)::DOUBLE AS avg_llm_processing_time,
  coalesce(round(avg(voice_processing_ms), 3), 0)::DOUBLE AS avg_voice_processing_time,
  CASE WHEN sum(duration_ms) = 0 THEN 0
       ELSE round(sum(word_count) / (sum(duration_ms) / 60000.0), 3) END::DOUBLE AS avg_wpm`;

const range = (q: RawQuery) =>
  `organization_id = ${sqlString(q.org)} AND recorded_at >= to_timestamp(${q.fromMs / 1000}) ` +
  `AND recorded_at < to_timestamp(${q.toMs / 1000})`;

/**
 * DuckDB's SQL for the query: buckets by truncating the zone's wall-clock time and converting back
 * (ICU's `timezone`), as epoch milliseconds; groups in byte order, NULL last.
 */
export function duckdbSql(q: RawQuery): string {
  if (q.kind === "summary") {
    return `SELECT count(*)::BIGINT AS total_recordings,
      round(coalesce(sum(duration_ms), 0) / 60000.0, 3)::DOUBLE AS total_duration_minutes,
      coalesce(sum(word_count), 0)::BIGINT AS total_words,
      coalesce(round(avg(llm_processing_ms) / 1000.0, 3), 0)::DOUBLE AS avg_llm_processing_seconds,
      coalesce(round(avg(voice_processing_ms) / 1000.0, 3), 0)::DOUBLE AS avg_voice_processing_seconds
    FROM recordings WHERE ${range(q)}
      AND voice_model IN (${sqlList(q.filters?.voice_model ?? [])})
      AND app_name IN (${sqlList(q.filters?.app_name ?? [])})`;
  }
  const zone = sqlString(q.zone);
  const group = q.groupBy ? `, ${q.groupBy}` : "";
  return `SELECT epoch_ms(timezone(${zone}, date_trunc('${q.unit}', timezone(${zone}, recorded_at)))) AS bucket${group},
      ${ROW_METRICS}, count(*) OVER () AS total_rows
    FROM recordings WHERE ${range(q)}
    GROUP BY 1${group} ORDER BY 1${groupOrder(q)}
    LIMIT ${q.pageSize} OFFSET ${offsetOf(q)}`;
}

/**
 * DuckDB in process, in memory, with the raw events sorted by organization and time (so its zone
 * maps skip other organizations' and other times' row groups), 2 threads.
 */
export async function openDuckDb(source: EngineSource): Promise<PeerEngine> {
  const { DuckDBInstance } = (await importEngine("@duckdb/node-api")) as DuckDbApi;
  const instance = await DuckDBInstance.create(":memory:", { threads: String(ENGINE_THREADS) });
  const connection = await instance.connect();
  const columns = RAW_COLUMNS.map((c) => `'${c}': '${TYPES[c]}'`).join(", ");
  const started = performance.now();
  await connection.runAndReadAll(
    `CREATE TABLE recordings AS SELECT * FROM read_csv(${sqlString(source.csvFile)},
       header = false, columns = {${columns}}, quote = '"', escape = '"')
     ORDER BY organization_id, recorded_at`,
  );
  const loadSeconds = (performance.now() - started) / 1000;
  return {
    name: PEER_NAMES.duckdb,
    loadSeconds,
    async run(sql) {
      return (await connection.runAndReadAll(sql)).getRowObjectsJS();
    },
    async close() {
      connection.closeSync();
      instance.closeSync();
    },
  };
}
