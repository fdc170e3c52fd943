import { openChdbSession } from "./chdbSession";
import {
  bucketStart,
  CLICKHOUSE_RAW_TABLE_DDL,
  CLICKHOUSE_SETTINGS,
  CLICKHOUSE_TYPES,
  loadRawEvents,
  RAW_TABLE,
} from "./clickhouseEngine";
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

// ClickHouse as its users roll events up (OpenMeter's and Tinybird's pattern): the raw MergeTree,
// and a materialized view that sums every block inserted into it into a SummingMergeTree keyed by
// organization, UTC quarter hour and combination. A SummingMergeTree sums rows of one key only
// when its parts merge, so every query sums what it reads and groups again. ClickHouse's query
// cache, which would keep answers as the API's result cache does, cannot be used here: chDB embeds
// clickhouse-local, which sets it up with no room (`use_query_cache` is accepted, nothing is kept).

/** Each rollup sum as the view computes it from a block of raw rows. */
const SUM_OF: Record<RollupSum, string> = {
  recordings: "count()",
  words_sum: "sum(word_count)",
  duration_ms_sum: "sum(duration_ms)",
  voice_ms_sum: "sum(ifNull(voice_processing_ms, 0))",
  voice_ms_count: "count(voice_processing_ms)",
  llm_ms_sum: "sum(ifNull(llm_processing_ms, 0))",
  llm_ms_count: "count(llm_processing_ms)",
};

const SUMS = Object.keys(ROLLUP_SUMS) as RollupSum[];
const KEY = ["organization_id", "quarter", ...ROLLUP_DIMENSIONS];

/** The rollup table, then the view that fills it from every insert into the raw table. */
export function clickhouseRollupDdl(): string[] {
  const dimensions = ROLLUP_DIMENSIONS.map((d) => `${d} ${CLICKHOUSE_TYPES[d]}`);
  const columns = [
    `organization_id ${CLICKHOUSE_TYPES.organization_id}`,
    "quarter DateTime('UTC')",
    ...dimensions,
    ...SUMS.map((s) => `${s} UInt64`),
  ];
  return [
    `CREATE TABLE ${ROLLUP_TABLE} (${columns.join(", ")})
      ENGINE = SummingMergeTree ORDER BY (${KEY.join(", ")})
      SETTINGS allow_nullable_key = 1`,
    `CREATE MATERIALIZED VIEW ${ROLLUP_TABLE}_view TO ${ROLLUP_TABLE} AS
      SELECT organization_id, toStartOfInterval(recorded_at, INTERVAL ${QUARTER_MS / 60_000} MINUTE, 'UTC') AS quarter,
        ${ROLLUP_DIMENSIONS.join(", ")}, ${SUMS.map((s) => `${SUM_OF[s]} AS ${s}`).join(", ")}
      FROM ${RAW_TABLE} GROUP BY ${KEY.join(", ")}`,
  ];
}

/** docs/contract.md §2's row metrics from the sums: averages over the non-null values, 0 when none. */
const ROW_METRICS = `
  sum(recordings) AS recording_count,
  sum(words_sum) AS total_words,
  sum(duration_ms_sum) AS total_duration,
  if(sum(llm_ms_count) = 0, 0, round(sum(llm_ms_sum) / sum(llm_ms_count), 3)) AS avg_llm_processing_time,
  if(sum(voice_ms_count) = 0, 0, round(sum(voice_ms_sum) / sum(voice_ms_count), 3)) AS avg_voice_processing_time,
  if(sum(duration_ms_sum) = 0, 0, round(sum(words_sum) / (sum(duration_ms_sum) / 60000.0), 3)) AS avg_wpm`;

function range(q: RawQuery): string {
  const { fromMs, toMs } = quarterRange(q);
  return (
    `organization_id = ${sqlString(q.org)} ` +
    `AND quarter >= toDateTime(${fromMs / 1000}, 'UTC') AND quarter < toDateTime(${toMs / 1000}, 'UTC')`
  );
}

/**
 * The query over the rollup: its rows in range summed by bucket (each quarter bucketed by its start
 * in the query's zone) and group.
 */
export function clickhouseRollupSql(q: RawQuery): string {
  if (q.kind === "summary") {
    return `SELECT sum(recordings) AS total_recordings,
      round(sum(duration_ms_sum) / 60000.0, 3) AS total_duration_minutes,
      sum(words_sum) AS total_words,
      if(sum(llm_ms_count) = 0, 0, round(sum(llm_ms_sum) / sum(llm_ms_count) / 1000.0, 3)) AS avg_llm_processing_seconds,
      if(sum(voice_ms_count) = 0, 0, round(sum(voice_ms_sum) / sum(voice_ms_count) / 1000.0, 3)) AS avg_voice_processing_seconds
    FROM ${ROLLUP_TABLE} WHERE ${range(q)}
      AND voice_model IN (${sqlList(q.filters?.voice_model ?? [])})
      AND app_name IN (${sqlList(q.filters?.app_name ?? [])})
    ${CLICKHOUSE_SETTINGS}`;
  }
  const group = q.groupBy ? `, ${q.groupBy}` : "";
  return `SELECT ${bucketStart(q, "quarter")} AS bucket_s${group}, ${ROW_METRICS}, count() OVER () AS total_rows
    FROM ${ROLLUP_TABLE} WHERE ${range(q)}
    GROUP BY bucket_s${group} ORDER BY bucket_s${groupOrder(q)}
    LIMIT ${q.pageSize} OFFSET ${offsetOf(q)}
    ${CLICKHOUSE_SETTINGS}`;
}

/**
 * ClickHouse with its materialized view: the view and its table created first, then the raw
 * events loaded (the view sums each inserted block), then the rollup merged to one part, as a
 * table left alone long enough would be. Its storage is the rollup table's.
 */
export async function openClickHouseRollup(source: EngineSource): Promise<PeerEngine> {
  const session = await openChdbSession();
  const started = performance.now();
  session.exec(CLICKHOUSE_RAW_TABLE_DDL);
  for (const statement of clickhouseRollupDdl()) session.exec(statement);
  loadRawEvents(session, source.csvFile);
  session.exec(`OPTIMIZE TABLE ${ROLLUP_TABLE} FINAL`);
  const loadSeconds = (performance.now() - started) / 1000;
  return {
    name: PEER_NAMES.clickhouseRollup,
    loadSeconds,
    storage: session.storage(ROLLUP_TABLE),
    async run(sql) {
      return session.rows(sql);
    },
    async close() {
      session.close();
    },
  };
}
