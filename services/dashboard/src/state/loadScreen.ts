import type { ApiClient } from "../api/client";
import type { StatsPage, StatsRow, Summary } from "../api/types";
import { cardsQuery, chartQuery, statsQuery, topQuery, viewRange } from "./apiQuery";
import type { ZonedRange } from "./presets";
import type { ScreenState } from "./screenState";
import type { TOP_DIMENSIONS } from "./vocabulary";

/** The chart reads at most this many rows (10 pages of the API's largest page). */
const CHART_PAGE_SIZE = 1000;
const CHART_MAX_PAGES = 10;

export type TopDimension = (typeof TOP_DIMENSIONS)[number];

export interface LoadedView {
  range: ZonedRange;
  summary: Summary;
  /** The instant up to which the view was complete when the summary was answered (or null). */
  dataAsOf: string | null;
  /** Every row of the view (up to the cap), every bucket of the range, for the chart. */
  chartRows: StatsRow[];
  chartTruncated: boolean;
  /** The page the table shows. */
  table: StatsPage;
  /** The top 10 members and apps over the range, each with its "(other)" row. */
  top: Record<TopDimension, StatsRow[]>;
}

/** Reads all of `/stats` for the chart, page by page. */
async function allRows(api: ApiClient, view: ScreenState, range: ZonedRange, signal: AbortSignal) {
  const rows: StatsRow[] = [];
  for (let page = 1; page <= CHART_MAX_PAGES; page++) {
    const answer = await api.stats(chartQuery(view, range, { page, pageSize: CHART_PAGE_SIZE }), signal);
    rows.push(...answer.data);
    if (page >= answer.pagination.total_pages) return { rows, truncated: false };
  }
  return { rows, truncated: true };
}

/**
 * Everything a view shows, through the three public operations only: the range is resolved once,
 * so cards, chart and tables count the same instants.
 */
export async function loadScreen(
  api: ApiClient,
  view: ScreenState,
  nowMs: number,
  signal: AbortSignal,
): Promise<LoadedView> {
  const range = viewRange(view, nowMs);
  const topRows = (dimension: TopDimension) =>
    api.stats(topQuery(view, range, dimension), signal).then((answer) => answer.data);
  const [summary, chart, table, members, apps] = await Promise.all([
    api.summary(cardsQuery(view, range), signal),
    allRows(api, view, range, signal),
    api.stats(statsQuery(view, range, { page: view.page, pageSize: view.pageSize }), signal),
    topRows("member_email"),
    topRows("app_name"),
  ]);
  return {
    range,
    summary: summary.summary,
    dataAsOf: summary.dataAsOf,
    chartRows: chart.rows,
    chartTruncated: chart.truncated,
    table,
    top: { member_email: members, app_name: apps },
  };
}
