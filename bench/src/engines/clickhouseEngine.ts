import { type ChdbSession, openChdbSession } from "./chdbSession";
import { ENGINE_THREADS, type EngineSource, PEER_NAMES, type PeerEngine } from "./peerEngine";
import { RAW_COLUMNS } from "./rawEventsCsv";
import { groupOrder, offsetOf, type RawQuery, sqlList, sqlString } from "./rawQuery";

/**
 * The raw table as a ClickHouse user would lay it out (OpenMeter keeps its events so): a MergeTree
 * ordered by organization and time, the dimensions as LowCardinality strings.
 */
export const CLICKHOUSE_TYPES: Record<(typeof RAW_COLUMNS)[number], string> = {
  organization_id: "LowCardinality(String)",
  recording_id: "String",
  member_email: "LowCardinality(String)",
  voice_model: "LowCardinality(String)",
  language_model: "LowCardinality(Nullable(String))",
  app_name: "LowCardinality(String)",
  recorded_at: "DateTime64(3, 'UTC')",
  duration_ms: "UInt32",
  word_count: "UInt32",
  voice_processing_ms: "Nullable(UInt32)",
  llm_processing_ms: "Nullable(UInt32)",
};

/** The raw events' table, in both ClickHouse peers. */
export const RAW_TABLE = "recordings";

const RAW_COLUMN_TYPES = RAW_COLUMNS.map((c) => `${c} ${CLICKHOUSE_TYPES[c]}`).join(", ");

export const CLICKHOUSE_RAW_TABLE_DDL = `CREATE TABLE ${RAW_TABLE} (${RAW_COLUMN_TYPES})
  ENGINE = MergeTree ORDER BY (organization_id, recorded_at)`;

/** The CSV into the raw table, in one INSERT (a materialized view on the table sees every block of it). */
export function loadRawEvents(session: ChdbSession, csvFile: string): void {
  session.exec(
    `INSERT INTO ${RAW_TABLE} SELECT * FROM file(${sqlString(csvFile)}, 'CSV', ${sqlString(RAW_COLUMN_TYPES)})
     SETTINGS date_time_input_format = 'best_effort', input_format_csv_empty_as_default = 1`,
  );
}

const ROW_METRICS = `
  count() AS recording_count,
  sum(word_count) AS total_words,
  sum(duration_ms) AS total_duration,
  round(ifNull(avg(llm_processing_ms), 0), 3) AS avg_llm_processing_time,
  round(ifNull(avg(voice_processing_ms), 0), 3) AS avg_voice_processing_time,
  if(sum(duration_ms) = 0, 0, round(sum(word_count) / (sum(duration_ms) / 60000.0), 3)) AS avg_wpm`;

const range = (q: RawQuery) =>
  `organization_id = ${sqlString(q.org)} ` +
  `AND recorded_at >= fromUnixTimestamp64Milli(toInt64(${q.fromMs}), 'UTC') ` +
  `AND recorded_at < fromUnixTimestamp64Milli(toInt64(${q.toMs}), 'UTC')`;

export const CLICKHOUSE_SETTINGS = `SETTINGS max_threads = ${ENGINE_THREADS}`;

/**
 * The start in the query's zone of the bucket holding `column`'s instant, as Unix time in seconds
 * (`bucket_s`): the raw table's `recorded_at`, or the rollup's quarter hour.
 */
export function bucketStart(q: RawQuery, column: string): string {
  const zone = sqlString(q.zone);
  if (q.unit === "hour") return `toUnixTimestamp(toStartOfHour(${column}, ${zone}))`;
  if (q.unit === "day") return `toUnixTimestamp(toStartOfDay(${column}, ${zone}))`;
  return `toUnixTimestamp(toDateTime(toStartOfMonth(${column}, ${zone}), ${zone}))`;
}

/** ClickHouse's SQL for the query: zone-aware `toStartOf…`, groups in byte order, NULL last. */
export function clickhouseSql(q: RawQuery): string {
  if (q.kind === "summary") {
    return `SELECT count() AS total_recordings,
      round(sum(duration_ms) / 60000.0, 3) AS total_duration_minutes,
      sum(word_count) AS total_words,
      round(ifNull(avg(llm_processing_ms) / 1000.0, 0), 3) AS avg_llm_processing_seconds,
      round(ifNull(avg(voice_processing_ms) / 1000.0, 0), 3) AS avg_voice_processing_seconds
    FROM ${RAW_TABLE} WHERE ${range(q)}
      AND voice_model IN (${sqlList(q.filters?.voice_model ?? [])})
      AND app_name IN (${sqlList(q.filters?.app_name ?? [])})
    ${CLICKHOUSE_SETTINGS}`;
  }
  const group = q.groupBy ? `, ${q.groupBy}` : "";
  return `SELECT ${bucketStart(q, "recorded_at")} AS bucket_s${group}, ${ROW_METRICS}, count() OVER () AS total_rows
    FROM ${RAW_TABLE} WHERE ${range(q)}
    GROUP BY bucket_s${group} ORDER BY bucket_s${groupOrder(q)}
    LIMIT ${q.pageSize} OFFSET ${offsetOf(q)}
    ${CLICKHOUSE_SETTINGS}`;
}

/**
 * ClickHouse over the raw events: the MergeTree above, its bytes on disk read from `system.parts`
 * after the load (after OPTIMIZE FINAL, the one merged part).
 */
export async function openClickHouse(source: EngineSource): Promise<PeerEngine> {
  const session = await openChdbSession();
  const started = performance.now();
  session.exec(CLICKHOUSE_RAW_TABLE_DDL);
  loadRawEvents(session, source.csvFile);
  // One part, as a table left alone long enough would have: the fairest state to query.
  session.exec(`OPTIMIZE TABLE ${RAW_TABLE} FINAL`);
  const loadSeconds = (performance.now() - started) / 1000;
  return {
    name: PEER_NAMES.clickhouse,
    loadSeconds,
    storage: session.storage(RAW_TABLE),
    async run(sql) {
      return session.rows(sql);
    },
    async close() {
      session.close();
    },
  };
}
