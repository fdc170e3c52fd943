import uPlot from "uplot";
import "uplot/dist/uPlot.min.css";
import { chartAxes } from "./axes";
import { OTHER_COLOUR, SERIES_COLOURS } from "./palette";
import type { ChartData } from "./series";
import { stackValues } from "./series";

export interface TimeChartOptions {
  data: ChartData;
  zone: string;
  /** Formats a value for the axis and the hover readout. */
  formatValue: (n: number) => string;
  formatAxis: (n: number) => string;
  formatTime: (unixSeconds: number) => string;
}

export const seriesColour = (index: number, isOther: boolean): string =>
  isOther ? OTHER_COLOUR : (SERIES_COLOURS[index % SERIES_COLOURS.length] ?? OTHER_COLOUR);

/**
 * A stacked bar chart of the series over time (uPlot: canvas, time axis in the view's zone).
 * uPlot does not stack by itself: each series is drawn up to its cumulative value, the biggest
 * first, so every group's own band shows in its colour; the readout shows each group's own value.
 */
export function createTimeChart(container: HTMLElement, readout: HTMLElement, options: TimeChartOptions) {
  const { data, zone } = options;
  const stacked = stackValues(data.series.map((s) => s.values));
  // Drawn top of the stack first, so the lower bands are painted over it.
  const order = data.series.map((_, i) => data.series.length - 1 - i);
  const colours = data.series.map((s, i) => seriesColour(i, typeof s.key === "symbol"));
  const step = data.x.length > 1 ? (data.x.at(-1) ?? 0) - (data.x.at(-2) ?? 0) : 86_400;
  const bars = uPlot.paths.bars?.({ align: 1, size: [0.85, 64], gap: 1 });

  const showReadout = (u: uPlot) => {
    const i = u.cursor.idx;
    if (i === null || i === undefined || data.x[i] === undefined) {
      readout.textContent = "";
      return;
    }
    const parts = data.series.map((s) => `${s.label}: ${options.formatValue(s.values[i] ?? 0)}`);
    readout.textContent = `${options.formatTime(data.x[i] ?? 0)} — ${parts.join(" · ")}`;
  };

  const opts: uPlot.Options = {
    width: Math.max(280, container.clientWidth),
    height: container.clientWidth < 600 ? 240 : 320,
    tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), zone),
    legend: { show: false },
    cursor: { drag: { x: false, y: false }, points: { show: false } },
    scales: {
      x: {
        time: true,
        range: (_u, min, max) => [min, max + step],
      },
      y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.05 : 1] },
    },
    axes: chartAxes(options.formatAxis),
    series: [
      {},
      ...order.map((i) => ({
        label: data.series[i]?.label ?? "",
        fill: colours[i] ?? OTHER_COLOUR,
        stroke: colours[i] ?? OTHER_COLOUR,
        width: 0,
        ...(bars ? { paths: bars } : {}),
        points: { show: false },
      })),
    ],
    hooks: { setCursor: [showReadout] },
  };
  const plot = new uPlot(opts, [data.x, ...order.map((i) => stacked[i] ?? [])], container);

  const resize = new ResizeObserver(() => {
    const width = Math.max(280, container.clientWidth);
    if (width !== plot.width) plot.setSize({ width, height: width < 600 ? 240 : 320 });
  });
  resize.observe(container);
  return {
    colours,
    destroy() {
      resize.disconnect();
      plot.destroy();
    },
  };
}
