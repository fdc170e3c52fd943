import pg from "pg";
import { type EngineSource, PEER_NAMES, type PeerEngine } from "./peerEngine";
import {
  QUARTER_MS,
  quarterRange,
  ROLLUP_DIMENSIONS,
  ROLLUP_SUMS,
  ROLLUP_TABLE,
  type RollupSum,
} from "./quarterRollup";
import { groupOrder, offsetOf, type RawQuery, sqlList, sqlString } from "./rawQuery";

// PostgreSQL with the rollup a user would add beside the raw table: one row per organization, UTC
// quarter hour and combination, filled from the raw table with one INSERT … SELECT … GROUP BY
// after the load (in organization and quarter order, so a range of one organization is a run of
// adjacent pages), indexed on (organization_id, quarter).

/** Each rollup sum as the INSERT computes it from the raw rows. */
const SUM_OF: Record<RollupSum, string> = {
  recordings: "count(*)",
  words_sum: "sum(word_count)",
  duration_ms_sum: "sum(duration_ms)",
  voice_ms_sum: "coalesce(sum(voice_processing_ms), 0)",
  voice_ms_count: "count(voice_processing_ms)",
  llm_ms_sum: "coalesce(sum(llm_processing_ms), 0)",
  llm_ms_count: "count(llm_processing_ms)",
};

const SUMS = Object.keys(ROLLUP_SUMS) as RollupSum[];
/** language_model is the one dimension that may be null (no language model used). */
const nullable = (dimension: string) => (dimension === "language_model" ? "" : " NOT NULL");

/** The statements that make the rollup table from the schema's raw table `recordings`. */
export function postgresRollupDdl(schema: string): string[] {
  const table = `${schema}.${ROLLUP_TABLE}`;
  const columns = [
    "organization_id text NOT NULL",
    "quarter timestamptz NOT NULL",
    ...ROLLUP_DIMENSIONS.map((d) => `${d} text${nullable(d)}`),
    ...SUMS.map((s) => `${s} bigint NOT NULL`),
  ];
  const key = ROLLUP_DIMENSIONS.length + 2;
  return [
    `CREATE TABLE ${table} (${columns.join(", ")})`,
    `INSERT INTO ${table}
      SELECT organization_id,
        date_bin('${QUARTER_MS / 60_000} minutes', recorded_at, TIMESTAMPTZ '1970-01-01 00:00:00+00') AS quarter,
        ${ROLLUP_DIMENSIONS.join(", ")}, ${SUMS.map((s) => SUM_OF[s]).join(", ")}
      FROM ${schema}.recordings
      GROUP BY ${Array.from({ length: key }, (_, i) => i + 1).join(", ")}
      ORDER BY 1, 2`,
    `CREATE INDEX ${ROLLUP_TABLE}_org_quarter ON ${table} (organization_id, quarter)`,
    `VACUUM (ANALYZE) ${table}`,
  ];
}

/** docs/contract.md §2's row metrics from the sums, in exact numerics: averages over non-null values, 0 when none. */
const ROW_METRICS = `
  sum(recordings)::bigint AS recording_count,
  sum(words_sum)::bigint AS total_words,
  sum(duration_ms_sum)::bigint AS total_duration,
  CASE WHEN sum(llm_ms_count) = 0 THEN 0 ELSE round(sum(llm_ms_sum) / sum(llm_ms_count), 3) END AS avg_llm_processing_time,
  CASE WHEN sum(voice_ms_count) = 0 THEN 0 ELSE round(sum(voice_ms_sum) / sum(voice_ms_count), 3) END AS avg_voice_processing_time,
  CASE WHEN sum(duration_ms_sum) = 0 THEN 0
       ELSE round(sum(words_sum) / (sum(duration_ms_sum) / 60000.0), 3) END AS avg_wpm`;

const instant = (ms: number) => `TIMESTAMPTZ '${new Date(ms).toISOString()}'`;

function range(q: RawQuery): string {
  const { fromMs, toMs } = quarterRange(q);
  return `organization_id = ${sqlString(q.org)} AND quarter >= ${instant(fromMs)} AND quarter < ${instant(toMs)}`;
}

/**
 * The query over the rollup table, as text (literals, no bound parameters): each quarter bucketed
 * by its start with the three-argument date_trunc in the query's zone, as the raw table's query
 * buckets `recorded_at`; groups in byte order, NULL last; the page by LIMIT/OFFSET.
 */
export function postgresRollupSql(q: RawQuery, schema: string): string {
  const table = `${schema}.${ROLLUP_TABLE}`;
  if (q.kind === "summary") {
    return `SELECT coalesce(sum(recordings), 0)::bigint AS total_recordings,
      round(coalesce(sum(duration_ms_sum), 0) / 60000.0, 3) AS total_duration_minutes,
      coalesce(sum(words_sum), 0)::bigint AS total_words,
      CASE WHEN coalesce(sum(llm_ms_count), 0) = 0 THEN 0
           ELSE round(sum(llm_ms_sum) / sum(llm_ms_count) / 1000.0, 3) END AS avg_llm_processing_seconds,
      CASE WHEN coalesce(sum(voice_ms_count), 0) = 0 THEN 0
           ELSE round(sum(voice_ms_sum) / sum(voice_ms_count) / 1000.0, 3) END AS avg_voice_processing_seconds
    FROM ${table} WHERE ${range(q)}
      AND voice_model IN (${sqlList(q.filters?.voice_model ?? [])})
      AND app_name IN (${sqlList(q.filters?.app_name ?? [])})`;
  }
  const group = q.groupBy ? `, ${q.groupBy}` : "";
  return `SELECT date_trunc('${q.unit}', quarter, ${sqlString(q.zone)}) AS bucket${group},${ROW_METRICS},
    count(*) OVER () AS total_rows
  FROM ${table} WHERE ${range(q)}
  GROUP BY 1${group} ORDER BY 1${groupOrder(q, ' COLLATE "C"')}
  LIMIT ${q.pageSize} OFFSET ${offsetOf(q)}`;
}

/** Sort and hash memory for the INSERT's GROUP BY over every raw row, and for the index. */
const LOAD_SESSION = ["SET work_mem = '256MB'", "SET maintenance_work_mem = '512MB'"];
/** The same session setting the raw table's queries run with (queryBench.ts). */
const QUERY_SESSION = "SET work_mem = '64MB'";

async function connect(url: string, settings: readonly string[]): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  for (const setting of settings) await client.query(setting);
  return client;
}

/**
 * PostgreSQL's rollup table, made from the raw table PostgreSQL already holds, then queried over
 * one connection (single stream, as the embedded engines). The table goes with the data set's
 * schema.
 */
export async function openPostgresRollup(source: EngineSource): Promise<PeerEngine> {
  const { url, schema } = source.postgres;
  const table = `${schema}.${ROLLUP_TABLE}`;
  const started = performance.now();
  const loader = await connect(url, LOAD_SESSION);
  try {
    for (const statement of postgresRollupDdl(schema)) await loader.query(statement);
  } finally {
    await loader.end();
  }
  const loadSeconds = (performance.now() - started) / 1000;
  const client = await connect(url, [QUERY_SESSION]);
  const sizes = await client.query<{ bytes: string; rows: string }>(
    `SELECT pg_table_size('${table}') + pg_indexes_size('${table}') AS bytes,
            (SELECT count(*) FROM ${table}) AS rows`,
  );
  return {
    name: PEER_NAMES.postgresRollup,
    loadSeconds,
    storage: { bytes: Number(sizes.rows[0]?.bytes ?? 0), rows: Number(sizes.rows[0]?.rows ?? 0) },
    async run(sql) {
      return (await client.query(sql)).rows;
    },
    async close() {
      await client.end();
    },
  };
}
