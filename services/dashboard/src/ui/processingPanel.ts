import { DateTime } from "luxon";
import type { StatsRow } from "../api/types";
import { createProcessingChart, processingColour } from "../chart/processingChart";
import { buildProcessingLines } from "../chart/processingSeries";
import type { ScreenState } from "../state/screenState";
import { PERCENTILE_LABEL } from "../state/vocabulary";
import type { ChartPanel } from "./chartPanel";
import { el, scrollRegion } from "./dom";
import { formatBucket, formatCompact, formatPrecise } from "./format";
import { periodCell } from "./statsTable";

/** Said where the percentile would be, when the API refused `percentiles` for this organization. */
export const percentileNotKept = (): HTMLElement =>
  el(
    "p",
    { class: "note percentile-note" },
    `${PERCENTILE_LABEL} is not kept for this organization (its recordings were counted without percentile sketches): averages only.`,
  );

/**
 * The processing-time view: voice and language-model processing time per bucket, each average as
 * a line and its percentile dashed beside it, with the same numbers as a table whose cells carry
 * the API's row fields (`data-field`, `data-value` in milliseconds, `data-null` where null).
 */
export function createProcessingPanel(
  rows: readonly StatsRow[],
  view: ScreenState,
  percentileKept: boolean,
): ChartPanel {
  // In time order, as the chart's lines are.
  const sorted = [...rows].sort((a, b) => Date.parse(a.time_bucket) - Date.parse(b.time_bucket));
  const data = buildProcessingLines(sorted, percentileKept);
  const zoned = (seconds: number) =>
    formatBucket(DateTime.fromSeconds(seconds, { zone: view.timezone }).toISO() ?? "", view.granularity);
  const legend = el(
    "ul",
    { class: "legend", "aria-label": "Processing-time legend" },
    ...data.lines.map((line) => {
      const swatch = el("span", {
        class: `swatch line${line.kind === "percentile" ? " dashed" : ""}`,
        "aria-hidden": "true",
      });
      swatch.style.setProperty("--swatch", processingColour(line));
      return el("li", { "data-line": line.field }, swatch, line.label);
    }),
  );
  const canvas = el("div", {
    class: "chart processing-chart",
    role: "img",
    "aria-label": `Processing time over time, line chart${percentileKept ? ` with ${PERCENTILE_LABEL}` : ""}; the values are in the table below`,
  });
  const readout = el("p", { class: "readout", "aria-hidden": "true" });
  const table = el(
    "table",
    { class: "processing-data" },
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        el("th", { scope: "col" }, "Period"),
        ...data.lines.map((line) => el("th", { scope: "col", class: "num" }, `${line.label} (s)`)),
      ),
    ),
    el(
      "tbody",
      {},
      ...sorted.map((row, i) =>
        el(
          "tr",
          {},
          periodCell(row, zoned(data.x[i] ?? 0)),
          ...data.lines.map((line) => {
            const ms = row[line.field as keyof StatsRow] as number | null | undefined;
            const shown = line.values[i] ?? null;
            return el(
              "td",
              {
                class: "num",
                "data-field": line.field,
                "data-value": ms ?? "",
                "data-null": ms === null || ms === undefined,
              },
              shown === null ? "—" : formatPrecise(shown),
            );
          }),
        ),
      ),
    ),
  );
  const element = el(
    "div",
    { class: "chart-block", "data-percentile": percentileKept },
    el(
      "p",
      { class: "chart-caption" },
      `Voice and language-model processing time, seconds: average${percentileKept ? ` (solid) and ${PERCENTILE_LABEL} (dashed)` : ""}, per ${view.granularity}`,
    ),
    legend,
    percentileKept ? null : percentileNotKept(),
    canvas,
    readout,
    el(
      "details",
      { class: "chart-details" },
      el("summary", {}, "Processing times as a table"),
      scrollRegion("Processing times", table),
    ),
  );
  let chart: ReturnType<typeof createProcessingChart> | null = null;
  return {
    element,
    mount() {
      chart = createProcessingChart(canvas, readout, {
        data,
        zone: view.timezone,
        formatValue: formatPrecise,
        formatAxis: formatCompact,
        formatTime: zoned,
      });
    },
    destroy() {
      chart?.destroy();
    },
  };
}
