import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { importEngine } from "./engineInstall";
import { ENGINE_THREADS, type EngineStorage, type RawEngine } from "./rawEngine";
import { RAW_COLUMNS } from "./rawEventsCsv";
import { groupOrder, offsetOf, type RawQuery, sqlList, sqlString } from "./rawQuery";

/** The parts of `chdb` the bench uses (it is installed outside the workspace, untyped here). */
interface ChdbApi {
  Session: new (
    path: string,
  ) => {
    query(sql: string, format?: string): string;
    cleanup(): void;
  };
}

/**
 * The raw table as a ClickHouse user would lay it out (OpenMeter keeps its events so): a MergeTree
 * ordered by organization and time, the dimensions as LowCardinality strings.
 */
const TYPES: Record<(typeof RAW_COLUMNS)[number], string> = {
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

const SETTINGS = `SETTINGS max_threads = ${ENGINE_THREADS}`;

/** The bucket's start in the zone, as Unix time in seconds (`bucket_s`). */
function bucketStart(q: RawQuery): string {
  const zone = sqlString(q.zone);
  if (q.unit === "hour") return `toUnixTimestamp(toStartOfHour(recorded_at, ${zone}))`;
  if (q.unit === "day") return `toUnixTimestamp(toStartOfDay(recorded_at, ${zone}))`;
  return `toUnixTimestamp(toDateTime(toStartOfMonth(recorded_at, ${zone}), ${zone}))`;
}

/** ClickHouse's SQL for the query: zone-aware `toStartOf…`, groups in byte order, NULL last. */
export function clickhouseSql(q: RawQuery): string {
  if (q.kind === "summary") {
    return `SELECT count() AS total_recordings,
      round(sum(duration_ms) / 60000.0, 3) AS total_duration_minutes,
      sum(word_count) AS total_words,
      round(ifNull(avg(llm_processing_ms) / 1000.0, 0), 3) AS avg_llm_processing_seconds,
      round(ifNull(avg(voice_processing_ms) / 1000.0, 0), 3) AS avg_voice_processing_seconds
    FROM recordings WHERE ${range(q)}
      AND voice_model IN (${sqlList(q.filters?.voice_model ?? [])})
      AND app_name IN (${sqlList(q.filters?.app_name ?? [])})
    ${SETTINGS}`;
  }
  const group = q.groupBy ? `, ${q.groupBy}` : "";
  return `SELECT ${bucketStart(q)} AS bucket_s${group}, ${ROW_METRICS}, count() OVER () AS total_rows
    FROM recordings WHERE ${range(q)}
    GROUP BY bucket_s${group} ORDER BY bucket_s${groupOrder(q)}
    LIMIT ${q.pageSize} OFFSET ${offsetOf(q)}
    ${SETTINGS}`;
}

/**
 * Bytes on disk of the table's active parts (`system.parts`: compressed columns, marks, primary
 * index; after OPTIMIZE FINAL the one merged part) and their rows.
 */
function tableStorage(session: { query(sql: string, format?: string): string }): EngineStorage {
  const text = session.query(
    `SELECT sum(bytes_on_disk) AS bytes, sum(rows) AS rows FROM system.parts
     WHERE active AND database = currentDatabase() AND table = 'recordings'`,
    "JSONEachRow",
  );
  const row = JSON.parse(text.trim() || "{}") as { bytes?: string | number; rows?: string | number };
  return { bytes: Number(row.bytes ?? 0), rows: Number(row.rows ?? 0) };
}

/** ClickHouse in process (chDB), its data in a temporary directory removed on close. */
export async function openClickHouse(csvFile: string): Promise<RawEngine> {
  const loaded = (await importEngine("chdb")) as ChdbApi & { default?: ChdbApi };
  const { Session } = loaded.default ?? loaded;
  const dir = mkdtempSync(join(tmpdir(), "vu-bench-chdb-"));
  const session = new Session(dir);
  const columns = RAW_COLUMNS.map((c) => `${c} ${TYPES[c]}`).join(", ");
  const started = performance.now();
  session.query(
    `CREATE TABLE recordings (${columns}) ENGINE = MergeTree ORDER BY (organization_id, recorded_at)`,
  );
  session.query(
    `INSERT INTO recordings SELECT * FROM file(${sqlString(csvFile)}, 'CSV', ${sqlString(columns)})
     SETTINGS date_time_input_format = 'best_effort', input_format_csv_empty_as_default = 1`,
  );
  // One part, as a table left alone long enough would have: the fairest state to query.
  session.query("OPTIMIZE TABLE recordings FINAL");
  const loadSeconds = (performance.now() - started) / 1000;
  return {
    name: "ClickHouse",
    loadSeconds,
    storage: tableStorage(session),
    async run(sql) {
      const text = session.query(sql, "JSONEachRow");
      return text
        .split("\n")
        .filter((line) => line !== "")
        .map((line) => JSON.parse(line) as Record<string, unknown>);
    },
    async close() {
      session.cleanup();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
