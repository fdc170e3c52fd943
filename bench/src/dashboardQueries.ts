import type { OrganizationProfile } from "@vu/demo-data";
import type { Dimension } from "@vu/events";
import { DateTime } from "luxon";
import type { BenchDataset, OrganizationRole } from "./benchDataset";
import type { RawQuery, ResponseKind } from "./engines/rawQuery";

export type { ResponseKind };

/**
 * One dashboard query, said twice: as the API request a dashboard sends, and as the engine-neutral
 * question (`raw`) each raw-scan engine answers with its own SQL. Both carry the same resolved range.
 */
export interface DashboardQuery {
  id: string;
  title: string;
  kind: ResponseKind;
  /** Path and query string, relative to the API's base URL. */
  path: string;
  groupBy?: Dimension;
  raw: RawQuery;
  /** Who it is asked for, when the data set has more than one queried organization (`organizationQueries`). */
  organization?: AskedOrganization;
}

export interface AskedOrganization {
  role: OrganizationRole;
  organizationId: string;
  recordings: number;
}

/** The data set's time range and the organization a query set is asked for. */
export interface QueryScope {
  fromMs: number;
  toMs: number;
  org: OrganizationProfile;
}

const BERLIN = "Europe/Berlin";
const KOLKATA = "Asia/Kolkata";
const PAGE_SIZE = 1000;

const isoZ = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");

function path(route: string, params: Record<string, string>): string {
  return `${route}?${new URLSearchParams(params).toString()}`;
}

/** The last 7 days up to `end`, by hour in `zone` (instants, so the range is the same in every zone). */
function weekByHour(id: string, title: string, dataset: QueryScope, zone: string): DashboardQuery {
  const end = dataset.toMs;
  const weekAgo = end - 7 * 24 * 3_600_000;
  return {
    id,
    title,
    kind: "stats",
    path: path("/api/v1/stats", {
      start_date: isoZ(weekAgo),
      end_date: isoZ(end),
      timezone: zone,
      granularity: "hour",
      page_size: String(PAGE_SIZE),
    }),
    raw: {
      kind: "stats",
      org: dataset.org.organizationId,
      fromMs: weekAgo,
      toMs: end,
      zone,
      unit: "hour",
      page: 1,
      pageSize: PAGE_SIZE,
    },
  };
}

/** The 30 whole days before the zone's today, by day × app_name. */
function monthByApp(id: string, title: string, dataset: QueryScope, zone: string): DashboardQuery {
  const today = DateTime.fromMillis(dataset.toMs, { zone }).startOf("day");
  const start = today.minus({ days: 30 });
  return {
    id,
    title,
    kind: "stats",
    groupBy: "app_name",
    path: path("/api/v1/stats", {
      start_date: start.toISODate() ?? "",
      end_date: today.minus({ days: 1 }).toISODate() ?? "",
      timezone: zone,
      granularity: "day",
      group_by: "app_name",
      page_size: String(PAGE_SIZE),
    }),
    raw: {
      kind: "stats",
      org: dataset.org.organizationId,
      fromMs: start.toMillis(),
      toMs: today.toMillis(),
      zone,
      unit: "day",
      groupBy: "app_name",
      page: 1,
      pageSize: PAGE_SIZE,
    },
  };
}

/**
 * The fixed dashboard set, anchored at the data set's end so every run asks the same questions of
 * its own data: recent hours, a month by app, a year by member (the widest read), a filtered
 * quarter summary, a CSV export page, a week by hour in a half-hour zone; and the UTC twins of
 * the two zoned queries, which show what the zone costs.
 */
export function dashboardQueries(dataset: QueryScope): DashboardQuery[] {
  const org = dataset.org.organizationId;
  const end = dataset.toMs;
  const today = DateTime.fromMillis(end, { zone: BERLIN }).startOf("day");
  const quarterStart = today.startOf("quarter").minus({ quarters: 1 });
  const quarterEnd = quarterStart.endOf("quarter").startOf("day");
  const utcToday = DateTime.fromMillis(end, { zone: "utc" }).startOf("day");
  const utcMonthStart = utcToday.minus({ days: 30 });
  const voiceModel = dataset.org.voiceModels[0] ?? "";
  // Core apps, which every generated organization has (demo-data lists them first).
  const apps = ["Zoom", "Bürokratie-Assistent"];

  return [
    weekByHour("a", "7 days by hour (Berlin)", dataset, BERLIN),
    monthByApp("b", "30 days by day × app_name (Berlin)", dataset, BERLIN),
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
      raw: {
        kind: "stats",
        org,
        fromMs: dataset.fromMs,
        toMs: end,
        zone: "UTC",
        unit: "month",
        groupBy: "member_email",
        page: 1,
        pageSize: PAGE_SIZE,
      },
    },
    {
      id: "d",
      title: "quarter summary, 2 filters (Berlin)",
      kind: "summary",
      path: path("/api/v1/stats/summary", {
        start_date: quarterStart.toISODate() ?? "",
        end_date: quarterEnd.toISODate() ?? "",
        timezone: BERLIN,
        "filter[voice_model]": voiceModel,
        "filter[app_name]": apps.join(","),
      }),
      raw: {
        kind: "summary",
        org,
        fromMs: quarterStart.toMillis(),
        toMs: quarterEnd.plus({ days: 1 }).toMillis(),
        zone: BERLIN,
        filters: { voice_model: [voiceModel], app_name: apps },
        page: 1,
        pageSize: 1,
      },
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
      raw: {
        kind: "csv",
        org,
        fromMs: utcMonthStart.toMillis(),
        toMs: utcToday.toMillis(),
        zone: "UTC",
        unit: "day",
        groupBy: "member_email",
        page: 2,
        pageSize: PAGE_SIZE,
      },
    },
    weekByHour("f", "7 days by hour (Kolkata)", dataset, KOLKATA),
    // A UTC twin is named for its zoned query plus "-utc" (targets.ts pairs them by that name).
    monthByApp("b-utc", "30 days by day × app_name (UTC)", dataset, "UTC"),
    weekByHour("f-utc", "7 days by hour (UTC)", dataset, "UTC"),
  ];
}

/**
 * The dashboard set for each organization the data set names: the single set's large organization
 * under the plain ids (a, b, …), the multi-tenant set's largest, median and smallest under
 * `largest:a`, `median:a`, `smallest:a`, … (ids stay unique in a run's results).
 */
export function organizationQueries(dataset: BenchDataset): DashboardQuery[] {
  return dataset.queried.flatMap(({ role, profile, count }) =>
    dashboardQueries({ fromMs: dataset.fromMs, toMs: dataset.toMs, org: profile }).map((query) => ({
      ...query,
      id: role === "large" ? query.id : `${role}:${query.id}`,
      organization: { role, organizationId: profile.organizationId, recordings: count },
    })),
  );
}
