import type { Dimension } from "@vu/events";
import { STATS_METRIC_COLUMNS } from "@vu/query-api";
import { parseCsv, unescapeFormula } from "./csvParse";
import type { DashboardQuery } from "./dashboardQueries";
import { offsetOf } from "./engines/rawQuery";

/** Either system's answer, reduced to what both must agree on. */
export interface ComparableAnswer {
  totalRows: number;
  /**
   * Set instead of an exact `totalRows` by a raw-scan engine's empty page past the first: its
   * `count(*) OVER ()` has no row to ride on, so all it says is that the total is at most the rows
   * before the page (a small organization's CSV page 2).
   */
  totalAtMost?: number;
  rows: Array<Record<string, number | string | null>>;
}

const METRICS = STATS_METRIC_COLUMNS;
const SUMMARY = [
  "total_recordings",
  "total_duration_minutes",
  "total_words",
  "avg_llm_processing_seconds",
  "avg_voice_processing_seconds",
] as const;
/** Exact integer fields; the rest are 3-decimal roundings of a quotient. */
const EXACT = new Set(["recording_count", "total_words", "total_duration", "total_recordings"]);
/**
 * Rounding to 3 decimals happens in doubles on one side and in exact numerics on the other, so a
 * value sitting on a half-thousandth may round either way: one unit of the last place is allowed.
 */
const TOLERANCE = 0.0010001;

type SqlRow = Record<string, unknown>;

const toNumber = (value: unknown) => (typeof value === "number" ? value : Number(value));

function statsRow(bucketMs: number, group: Dimension | undefined, source: Record<string, unknown>) {
  const row: Record<string, number | string | null> = { bucket: bucketMs };
  if (group) row[group] = (source[group] as string | null | undefined) ?? null;
  for (const m of METRICS) row[m] = toNumber(source[m]);
  return row;
}

/** Buckets come back as a Date (PostgreSQL), Unix milliseconds (DuckDB) or Unix seconds as text (ClickHouse, `bucket_s`). */
function bucketMs(row: SqlRow): number {
  if (row.bucket instanceof Date) return row.bucket.getTime();
  if (row.bucket_s !== undefined) return toNumber(row.bucket_s) * 1000;
  return toNumber(row.bucket);
}

/** A raw-scan engine's rows for the query (any of the three SQL engines). */
export function fromSql(query: DashboardQuery, rows: readonly SqlRow[]): ComparableAnswer {
  if (query.kind === "summary") {
    const row = rows[0] ?? {};
    return { totalRows: 1, rows: [Object.fromEntries(SUMMARY.map((f) => [f, toNumber(row[f])]))] };
  }
  const before = offsetOf(query.raw);
  if (rows.length === 0 && before > 0) return { totalRows: 0, totalAtMost: before, rows: [] };
  return {
    totalRows: rows.length === 0 ? 0 : toNumber(rows[0]?.total_rows),
    rows: rows.map((r) => statsRow(bucketMs(r), query.groupBy, r)),
  };
}

interface StatsBody {
  data: Array<Record<string, unknown>>;
  pagination: { total_rows: number };
}

export function fromApi(query: DashboardQuery, body: string, headers: Headers): ComparableAnswer {
  if (query.kind === "summary") {
    const summary = JSON.parse(body) as Record<string, unknown>;
    return { totalRows: 1, rows: [Object.fromEntries(SUMMARY.map((f) => [f, toNumber(summary[f])]))] };
  }
  if (query.kind === "stats") {
    const page = JSON.parse(body) as StatsBody;
    return {
      totalRows: page.pagination.total_rows,
      rows: page.data.map((r) => statsRow(Date.parse(String(r.time_bucket)), query.groupBy, r)),
    };
  }
  const [header, ...records] = parseCsv(body);
  if (header === undefined) throw new Error("CSV without a header row");
  return {
    totalRows: Number(headers.get("x-total-rows")),
    rows: records.map((cells) => {
      const source: Record<string, unknown> = {};
      header.forEach((name, i) => {
        const cell = cells[i] ?? "";
        source[name] = name === query.groupBy ? (cell === "" ? null : unescapeFormula(cell)) : cell;
      });
      return statsRow(Date.parse(String(source.time_bucket)), query.groupBy, source);
    }),
  };
}

function sameValue(
  field: string,
  a: number | string | null | undefined,
  b: number | string | null | undefined,
) {
  if (typeof a === "number" && typeof b === "number" && !EXACT.has(field) && field !== "bucket") {
    return Math.abs(a - b) <= TOLERANCE;
  }
  return a === b;
}

/** Null when both agree row by row (order included); otherwise the first difference, readable. */
export function compareAnswers(api: ComparableAnswer, sql: ComparableAnswer): string | null {
  if (sql.totalAtMost !== undefined) {
    if (api.totalRows > sql.totalAtMost)
      return `total rows: API ${api.totalRows}, SQL at most ${sql.totalAtMost} (its page is empty)`;
  } else if (api.totalRows !== sql.totalRows) return `total rows: API ${api.totalRows}, SQL ${sql.totalRows}`;
  if (api.rows.length !== sql.rows.length)
    return `rows in page: API ${api.rows.length}, SQL ${sql.rows.length}`;
  for (const [i, a] of api.rows.entries()) {
    const s = sql.rows[i] ?? {};
    for (const field of Object.keys({ ...a, ...s })) {
      if (!sameValue(field, a[field], s[field])) {
        return `row ${i} field ${field}: API ${JSON.stringify(a)} vs SQL ${JSON.stringify(s)}`;
      }
    }
  }
  return null;
}
