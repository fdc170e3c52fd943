import type { Dimension } from "@vu/events/vocabulary";
import type { StatsPage, StatsRow } from "../api/types";
import { groupLabel } from "../chart/series";
import type { ScreenState } from "../state/screenState";
import { DIMENSION_LABELS, PAGE_SIZES } from "../state/vocabulary";
import { el, scrollRegion } from "./dom";
import { formatBucket, formatDecimal, formatInteger, formatPrecise } from "./format";

/** A row's number fields, those the seed's rows always have and those a parameter adds. */
type MetricField = Exclude<
  {
    [K in keyof StatsRow]-?: NonNullable<StatsRow[K]> extends number ? K : never;
  }[keyof StatsRow],
  // docs/contract.md §9's percentiles, named by the query (`p<q>_…`): the table does not ask for them.
  `p${number}_${string}`
>;

/**
 * The row fields shown, in the API's order and units (rows are in milliseconds), and the distinct
 * members the view asks for (docs/contract.md §9).
 */
export const COLUMNS: readonly { field: MetricField; label: string; format: (n: number) => string }[] = [
  { field: "recording_count", label: "Recordings", format: formatInteger },
  { field: "total_words", label: "Words", format: formatInteger },
  { field: "total_duration", label: "Duration (min)", format: (ms) => formatDecimal(ms / 60_000) },
  { field: "avg_voice_processing_time", label: "Avg voice (ms)", format: formatPrecise },
  { field: "avg_llm_processing_time", label: "Avg LLM (ms)", format: formatPrecise },
  { field: "avg_wpm", label: "Avg WPM", format: formatPrecise },
  { field: "active_members", label: "Active members", format: formatInteger },
];

/**
 * The mark of a bucket that may still grow (docs/contract.md §9 `complete: false`: it ends after
 * the data's as-of instant), beside its period; nothing for a complete one.
 */
export const stillCounting = (complete: boolean | undefined): HTMLElement | null =>
  complete === false ? el("span", { class: "still-counting" }, "still counting") : null;

/** A row's period cell: `text` to read, the API's bucket in `data-value`, and whether it is complete. */
export const periodCell = (row: StatsRow, text: string): HTMLElement =>
  el(
    "th",
    {
      scope: "row",
      "data-field": "time_bucket",
      "data-value": row.time_bucket,
      "data-complete": row.complete === undefined ? null : String(row.complete),
    },
    text,
    stillCounting(row.complete),
  );

/** A row's group fields, one cell each, the API's value in `data-value` (null marked apart). */
export const groupCells = (row: StatsRow, groupBy: readonly Dimension[]): HTMLElement[] =>
  groupBy.map((dimension) => {
    const value = row[dimension] ?? null;
    return el(
      "td",
      { "data-field": dimension, "data-value": value ?? "", "data-null": value === null },
      groupLabel(dimension, value),
    );
  });

/** A row's metrics, rounded for reading, exact in `data-value`; a field the row lacks is an empty cell. */
export const metricCells = (row: StatsRow): HTMLElement[] =>
  COLUMNS.map((c) => {
    const value = row[c.field];
    if (value === undefined) return el("td", { class: "num" });
    return el("td", { class: "num", "data-field": c.field, "data-value": value }, c.format(value));
  });

export interface TablePaging {
  onPage: (page: number) => void;
  onPageSize: (pageSize: number) => void;
}

/**
 * One page of `/stats` as a table, with the API's own pagination. Cells carry the API's value in
 * `data-value` (the text is rounded for reading).
 */
export function renderStatsTable(page: StatsPage, view: ScreenState, paging: TablePaging): HTMLElement {
  const head = el(
    "tr",
    {},
    el("th", { scope: "col" }, "Period"),
    ...view.groupBy.map((dimension) => el("th", { scope: "col" }, DIMENSION_LABELS[dimension])),
    ...COLUMNS.map((c) => el("th", { scope: "col", class: "num" }, c.label)),
  );
  const rows = page.data.map((row) =>
    el(
      "tr",
      {},
      periodCell(row, formatBucket(row.time_bucket, view.granularity)),
      ...groupCells(row, view.groupBy),
      ...metricCells(row),
    ),
  );
  const { page: current, total_pages: totalPages, total_rows: totalRows } = page.pagination;
  const previous = el("button", { type: "button", disabled: current <= 1 }, "Previous");
  const next = el("button", { type: "button", disabled: current >= totalPages }, "Next");
  previous.addEventListener("click", () => paging.onPage(current - 1));
  next.addEventListener("click", () => paging.onPage(current + 1));
  const sizeSelect = el(
    "select",
    { id: "page_size", name: "page_size" },
    ...PAGE_SIZES.map((n) => el("option", { value: n, selected: n === view.pageSize }, String(n))),
  );
  sizeSelect.addEventListener("change", () => paging.onPageSize(Number(sizeSelect.value)));

  return el(
    "div",
    { class: "table-block" },
    scrollRegion(
      "Rows of the statistics",
      el("table", { class: "stats" }, el("thead", {}, head), el("tbody", {}, ...rows)),
    ),
    el(
      "nav",
      { class: "pager", "aria-label": "Table pages" },
      previous,
      el(
        "span",
        { class: "pager-position", "aria-live": "polite" },
        totalPages === 0
          ? "No rows"
          : `Page ${formatInteger(current)} of ${formatInteger(totalPages)} · ${formatInteger(totalRows)} rows`,
      ),
      next,
      el("label", { for: "page_size", class: "pager-size" }, "Rows per page"),
      sizeSelect,
    ),
  );
}
