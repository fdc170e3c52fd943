import { DateTime } from "luxon";
import type { ChartData } from "../chart/series";
import { createTimeChart, seriesColour } from "../chart/timeChart";
import type { ScreenState } from "../state/screenState";
import { CHART_METRIC_LABELS, DIMENSION_LABELS } from "../state/vocabulary";
import { el, scrollRegion } from "./dom";
import { formatBucket, formatCompact, formatDecimal, formatInteger } from "./format";
import { stillCounting } from "./statsTable";

export interface ChartPanel {
  element: HTMLElement;
  /** Draws the chart once the panel is in the document (uPlot measures its container). */
  mount(): void;
  destroy(): void;
}

/**
 * The chart with its legend, a hover readout, and the same numbers as a table for screen readers
 * and for anyone who wants the exact values (each cell's `data-value` is the plotted number).
 */
export function createChartPanel(data: ChartData, view: ScreenState, truncated: boolean): ChartPanel {
  const formatValue = view.metric === "minutes" ? formatDecimal : formatInteger;
  const metricLabel = CHART_METRIC_LABELS[view.metric];
  const legend = el(
    "ul",
    { class: "legend", "aria-label": "Legend" },
    ...data.series.map((s, i) => {
      const swatch = el("span", { class: "swatch", "aria-hidden": "true" });
      // CSSOM, not a style attribute: the CSP refuses inline style attributes.
      swatch.style.setProperty("--swatch", seriesColour(i, typeof s.key === "symbol"));
      return el("li", {}, swatch, `${s.label} `, el("span", { class: "legend-total" }, formatValue(s.total)));
    }),
  );
  const canvas = el("div", {
    class: "chart",
    role: "img",
    "aria-label": `${metricLabel} over time, bar chart; the values are in the table below`,
  });
  const readout = el("p", { class: "readout", "aria-hidden": "true" });
  const dataTable = el(
    "table",
    { class: "chart-data" },
    el(
      "thead",
      {},
      el(
        "tr",
        {},
        el("th", { scope: "col" }, "Period"),
        ...data.series.map((s) => el("th", { scope: "col", class: "num" }, s.label)),
      ),
    ),
    el(
      "tbody",
      {},
      ...data.x.map((seconds, i) =>
        el(
          "tr",
          {},
          el(
            "th",
            { scope: "row", "data-value": seconds * 1000 },
            formatBucket(
              DateTime.fromSeconds(seconds, { zone: view.timezone }).toISO() ?? "",
              view.granularity,
            ),
            stillCounting(!data.stillCounting[i]),
          ),
          ...data.series.map((s) =>
            el("td", { class: "num", "data-value": s.values[i] ?? 0 }, formatValue(s.values[i] ?? 0)),
          ),
        ),
      ),
    ),
  );
  const grouping =
    view.groupBy.length > 0
      ? ` by ${view.groupBy.map((d) => DIMENSION_LABELS[d].toLowerCase()).join(" and ")}`
      : "";
  const element = el(
    "div",
    { class: "chart-block" },
    el("p", { class: "chart-caption" }, `${metricLabel}${grouping}, per ${view.granularity}`),
    legend,
    data.stillCounting.some(Boolean)
      ? el(
          "p",
          { class: "note" },
          "Periods marked “still counting” end after the data’s as-of time: recordings may still be added to them.",
        )
      : null,
    canvas,
    readout,
    truncated
      ? el(
          "p",
          { class: "note" },
          "The chart shows the first 10,000 rows of this view; narrow the range or filters to see all.",
        )
      : null,
    el(
      "details",
      { class: "chart-details" },
      el("summary", {}, "Chart data as a table"),
      scrollRegion("Chart data", dataTable),
    ),
  );

  let chart: ReturnType<typeof createTimeChart> | null = null;
  return {
    element,
    mount() {
      chart = createTimeChart(canvas, readout, {
        data,
        zone: view.timezone,
        formatValue,
        formatAxis: formatCompact,
        formatTime: (seconds) => {
          const period = formatBucket(
            DateTime.fromSeconds(seconds, { zone: view.timezone }).toISO() ?? "",
            view.granularity,
          );
          return data.stillCounting[data.x.indexOf(seconds)] ? `${period} (still counting)` : period;
        },
      });
    },
    destroy() {
      chart?.destroy();
    },
  };
}
