import type { Dimension } from "@vu/events";

/** How the API's answer is read back for the comparison. */
export type ResponseKind = "stats" | "summary" | "csv";

/**
 * One dashboard question in engine-neutral terms, from which each raw-scan engine's SQL is written
 * (PostgreSQL, DuckDB, ClickHouse): the same resolved range, zone, bucketing, grouping and page as
 * the API request beside it.
 */
export interface RawQuery {
  kind: ResponseKind;
  org: string;
  /** The resolved range [fromMs, toMs). */
  fromMs: number;
  toMs: number;
  /** IANA zone the buckets are cut in. */
  zone: string;
  /** Bucket unit; absent for the summary. */
  unit?: "hour" | "day" | "month";
  groupBy?: Dimension;
  /** Summary filters: a recording counts when its value is one of the listed ones. */
  filters?: { voice_model: string[]; app_name: string[] };
  page: number;
  pageSize: number;
}

/** A SQL string literal (the engines here all double the quote). */
export const sqlString = (text: string) => `'${text.replaceAll("'", "''")}'`;

export const sqlList = (values: readonly string[]) => values.map(sqlString).join(", ");

/** Byte order with nulls last, as the API sorts groups (docs/contract.md §2 "Rows"). */
export function groupOrder(q: RawQuery, collate = ""): string {
  return q.groupBy ? `, ${q.groupBy}${collate} NULLS LAST` : "";
}

export const offsetOf = (q: RawQuery) => (q.page - 1) * q.pageSize;
