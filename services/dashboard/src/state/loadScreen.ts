import { refusesParameter } from "../api/apiError";
import type { ApiClient } from "../api/client";
import type { StatsPage, StatsQuery, StatsRow, Summary } from "../api/types";
import {
  cardsQuery,
  chartQuery,
  processingQuery,
  type StatsPaging,
  statsQuery,
  topQuery,
  viewRange,
} from "./apiQuery";
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
  /**
   * The processing-time view's rows: ungrouped, every bucket, with the percentile when it is kept
   * (the chart's own rows when the view is ungrouped).
   */
  processingRows: StatsRow[];
  /**
   * Whether the summary and the processing rows carry the percentile: false when the API refused
   * `percentiles` (a deployment or an organization counted without sketches, docs/contract.md §9).
   */
  percentileKept: boolean;
  /** The page the table shows. */
  table: StatsPage;
  /** The top 10 members and apps over the range, each with its "(other)" row. */
  top: Record<TopDimension, StatsRow[]>;
}

/** Reads all of a `/stats` query for a chart, page by page. */
async function allRows(api: ApiClient, query: (paging: StatsPaging) => StatsQuery, signal: AbortSignal) {
  const rows: StatsRow[] = [];
  for (let page = 1; page <= CHART_MAX_PAGES; page++) {
    const answer = await api.stats(query({ page, pageSize: CHART_PAGE_SIZE }), signal);
    rows.push(...answer.data);
    if (page >= answer.pagination.total_pages) return { rows, truncated: false };
  }
  return { rows, truncated: true };
}

/**
 * Asks with the percentile; when the API refuses `percentiles` (this organization or deployment
 * keeps no sketches), asks again without, so the rest of the view shows as it would without them.
 */
async function withPercentile<T>(ask: (percentile: boolean) => Promise<T>) {
  try {
    return { answer: await ask(true), percentile: true };
  } catch (error) {
    if (!refusesParameter(error, "percentiles")) throw error;
    return { answer: await ask(false), percentile: false };
  }
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
  const chartRows = (percentile: boolean) =>
    allRows(api, (paging) => chartQuery(view, range, paging, percentile), signal);
  // Grouped, the chart's rows are per group: the processing-time view asks for its own.
  const grouped = view.groupBy.length > 0;
  const [summary, chart, processing, table, members, apps] = await Promise.all([
    withPercentile((percentile) => api.summary(cardsQuery(view, range, percentile), signal)),
    grouped ? chartRows(false).then((answer) => ({ answer, percentile: false })) : withPercentile(chartRows),
    grouped
      ? withPercentile((percentile) =>
          allRows(api, (paging) => processingQuery(view, range, paging, percentile), signal),
        )
      : null,
    api.stats(statsQuery(view, range, { page: view.page, pageSize: view.pageSize }), signal),
    topRows("member_email"),
    topRows("app_name"),
  ]);
  const processingRows = processing ?? chart;
  return {
    range,
    summary: summary.answer.summary,
    dataAsOf: summary.answer.dataAsOf,
    chartRows: chart.answer.rows,
    chartTruncated: chart.answer.truncated,
    processingRows: processingRows.answer.rows,
    percentileKept: summary.percentile && processingRows.percentile,
    table,
    top: { member_email: members, app_name: apps },
  };
}
