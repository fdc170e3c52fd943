import type { Dimension } from "@vu/events";
import { DateTime } from "luxon";
import type { Dataset } from "./dataset";

/** How the API's answer is read back for the comparison. */
export type ResponseKind = "stats" | "summary" | "csv";

/**
 * One dashboard query, said twice: as the API request a dashboard sends, and as the SQL an analyst
 * would run on the raw table for the same numbers. Both carry the same resolved range.
 */
export interface DashboardQuery {
  id: string;
  title: string;
  kind: ResponseKind;
  /** Path and query string, relative to the API's base URL. */
  path: string;
  groupBy?: Dimension;
  sql: string;
  params: Array<string | string[] | Date>;
}

const ZONE = "Europe/Berlin";
const PAGE_SIZE = 1000;

/** Row metrics of CONTRACT §2 in SQL: exact sums, AVG over non-null values (0 if none), words per minute. */
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
function statsSql(
  table: string,
  unit: "hour" | "day" | "month",
  groupBy: Dimension | undefined,
  page: number,
): string {
  const group = groupBy ? `, ${groupBy}` : "";
  const order = groupBy ? `, ${groupBy} COLLATE "C" NULLS LAST` : "";
  return `SELECT date_trunc('${unit}', recorded_at, $4) AS bucket${group},${ROW_METRICS},
    count(*) OVER () AS total_rows
  FROM ${table} WHERE ${RANGE}
  GROUP BY 1${group} ORDER BY 1${order}
  LIMIT ${PAGE_SIZE} OFFSET ${(page - 1) * PAGE_SIZE}`;
}

function summarySql(table: string): string {
  return `SELECT count(*)::bigint AS total_recordings,
    round(coalesce(sum(duration_ms), 0) / 60000.0, 3) AS total_duration_minutes,
    coalesce(sum(word_count), 0)::bigint AS total_words,
    coalesce(round(avg(llm_processing_ms) / 1000.0, 3), 0) AS avg_llm_processing_seconds,
    coalesce(round(avg(voice_processing_ms) / 1000.0, 3), 0) AS avg_voice_processing_seconds
  FROM ${table} WHERE ${RANGE} AND voice_model = ANY($4) AND app_name = ANY($5)`;
}

const isoZ = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");

function path(route: string, params: Record<string, string>): string {
  return `${route}?${new URLSearchParams(params).toString()}`;
}

/**
 * The fixed dashboard set, anchored at the data set's end so every run asks the same questions of
 * its own data: recent hours, a month by app, a year by member (the widest read), a filtered
 * quarter summary, and a CSV export page.
 */
export function dashboardQueries(dataset: Dataset, table: string): DashboardQuery[] {
  const org = dataset.large.organizationId;
  const end = dataset.toMs;
  const weekAgo = end - 7 * 24 * 3_600_000;
  const today = DateTime.fromMillis(end, { zone: ZONE }).startOf("day");
  const monthStart = today.minus({ days: 30 });
  const lastDay = today.minus({ days: 1 }).toISODate() ?? "";
  const quarterStart = today.startOf("quarter").minus({ quarters: 1 });
  const quarterEnd = quarterStart.endOf("quarter").startOf("day");
  const utcToday = DateTime.fromMillis(end, { zone: "utc" }).startOf("day");
  const utcMonthStart = utcToday.minus({ days: 30 });
  const voiceModel = dataset.large.voiceModels[0] ?? "";
  const apps = ["Zoom", "Bürokratie-Assistent"];

  return [
    {
      id: "a",
      title: "7 days by hour",
      kind: "stats",
      path: path("/api/v1/stats", {
        start_date: isoZ(weekAgo),
        end_date: isoZ(end),
        timezone: ZONE,
        granularity: "hour",
        page_size: String(PAGE_SIZE),
      }),
      sql: statsSql(table, "hour", undefined, 1),
      params: [org, new Date(weekAgo), new Date(end), ZONE],
    },
    {
      id: "b",
      title: "30 days by day × app_name",
      kind: "stats",
      groupBy: "app_name",
      path: path("/api/v1/stats", {
        start_date: monthStart.toISODate() ?? "",
        end_date: lastDay,
        timezone: ZONE,
        granularity: "day",
        group_by: "app_name",
        page_size: String(PAGE_SIZE),
      }),
      sql: statsSql(table, "day", "app_name", 1),
      params: [org, monthStart.toJSDate(), today.toJSDate(), ZONE],
    },
    {
      id: "c",
      title: "13 months by month × member_email",
      kind: "stats",
      groupBy: "member_email",
      path: path("/api/v1/stats", {
        start_date: isoZ(dataset.fromMs),
        end_date: isoZ(end),
        granularity: "month",
        group_by: "member_email",
        page_size: String(PAGE_SIZE),
      }),
      sql: statsSql(table, "month", "member_email", 1),
      params: [org, new Date(dataset.fromMs), new Date(end), "UTC"],
    },
    {
      id: "d",
      title: "quarter summary, 2 filters",
      kind: "summary",
      path: path("/api/v1/stats/summary", {
        start_date: quarterStart.toISODate() ?? "",
        end_date: quarterEnd.toISODate() ?? "",
        timezone: ZONE,
        "filter[voice_model]": voiceModel,
        "filter[app_name]": apps.join(","),
      }),
      sql: summarySql(table),
      params: [org, quarterStart.toJSDate(), quarterEnd.plus({ days: 1 }).toJSDate(), [voiceModel], apps],
    },
    {
      id: "e",
      title: "CSV page: 30 days by day × member",
      kind: "csv",
      groupBy: "member_email",
      path: path("/api/v1/stats", {
        start_date: utcMonthStart.toISODate() ?? "",
        end_date: utcToday.minus({ days: 1 }).toISODate() ?? "",
        granularity: "day",
        group_by: "member_email",
        page: "2",
        page_size: String(PAGE_SIZE),
        format: "csv",
      }),
      sql: statsSql(table, "day", "member_email", 2),
      params: [org, utcMonthStart.toJSDate(), utcToday.toJSDate(), "UTC"],
    },
  ];
}
