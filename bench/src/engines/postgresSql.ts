import { groupOrder, offsetOf, type RawQuery } from "./rawQuery";

/** Row metrics of docs/contract.md §2 in SQL: exact sums, AVG over non-null values (0 if none), words per minute. */
const ROW_METRICS = `
  count(*)::bigint AS recording_count,
  sum(word_count)::bigint AS total_words,
  sum(duration_ms)::bigint AS total_duration,
  coalesce(round(avg(llm_processing_ms), 3), 0) AS avg_llm_processing_time,
  coalesce(round(avg(voice_processing_ms), 3), 0) AS avg_voice_processing_time,
  CASE WHEN sum(duration_ms) = 0 THEN 0
       ELSE round(sum(word_count) / (sum(duration_ms) / 60000.0), 3) END AS avg_wpm`;

const RANGE = "organization_id = $1 AND recorded_at >= $2 AND recorded_at < $3";

/**
 * Buckets with date_trunc in the query's zone (the three-argument form keeps the repeated autumn
 * hour as two buckets, as the API does); groups in byte order (COLLATE "C"), NULL last; the page
 * by LIMIT/OFFSET with the total row count alongside, as the API's pagination reports it.
 */
function statsSql(q: RawQuery, table: string): string {
  const group = q.groupBy ? `, ${q.groupBy}` : "";
  return `SELECT date_trunc('${q.unit}', recorded_at, $4) AS bucket${group},${ROW_METRICS},
    count(*) OVER () AS total_rows
  FROM ${table} WHERE ${RANGE}
  GROUP BY 1${group} ORDER BY 1${groupOrder(q, ' COLLATE "C"')}
  LIMIT ${q.pageSize} OFFSET ${offsetOf(q)}`;
}

function summarySql(table: string): string {
  return `SELECT count(*)::bigint AS total_recordings,
    round(coalesce(sum(duration_ms), 0) / 60000.0, 3) AS total_duration_minutes,
    coalesce(sum(word_count), 0)::bigint AS total_words,
    coalesce(round(avg(llm_processing_ms) / 1000.0, 3), 0) AS avg_llm_processing_seconds,
    coalesce(round(avg(voice_processing_ms) / 1000.0, 3), 0) AS avg_voice_processing_seconds
  FROM ${table} WHERE ${RANGE} AND voice_model = ANY($4) AND app_name = ANY($5)`;
}

/** The query as PostgreSQL text with bound parameters (range and zone, filter lists for the summary). */
export function postgresSql(
  q: RawQuery,
  table: string,
): { text: string; values: Array<string | string[] | Date> } {
  const range = [q.org, new Date(q.fromMs), new Date(q.toMs)];
  if (q.kind === "summary") {
    return {
      text: summarySql(table),
      values: [...range, q.filters?.voice_model ?? [], q.filters?.app_name ?? []],
    };
  }
  return { text: statsSql(q, table), values: [...range, q.zone] };
}
