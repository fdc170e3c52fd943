import uPlot from "uplot";
import { chartAxes } from "./axes";
import { SERIES_COLOURS } from "./palette";
import type { ProcessingData, ProcessingLine } from "./processingSeries";

export interface ProcessingChartOptions {
  data: ProcessingData;
  zone: string;
  formatValue: (n: number) => string;
  formatAxis: (n: number) => string;
  formatTime: (unixSeconds: number) => string;
}

/** A processing time's colour: its average solid, its percentile dashed in the same colour. */
export const processingColour = (line: Pick<ProcessingLine, "time">): string =>
  SERIES_COLOURS[line.time % SERIES_COLOURS.length] ?? "#000000";
export const PERCENTILE_DASH = [6, 4];

/**
 * The processing times over time as lines (uPlot), not stacked: averages and percentiles are not
 * sums. A bucket without a value is a gap in its line.
 */
export function createProcessingChart(
  container: HTMLElement,
  readout: HTMLElement,
  options: ProcessingChartOptions,
) {
  const { data, zone } = options;
  const showReadout = (u: uPlot) => {
    const i = u.cursor.idx;
    if (i === null || i === undefined || data.x[i] === undefined) {
      readout.textContent = "";
      return;
    }
    const parts = data.lines.map((line) => {
      const value = line.values[i];
      return `${line.label}: ${value === null || value === undefined ? "—" : `${options.formatValue(value)} s`}`;
    });
    readout.textContent = `${options.formatTime(data.x[i] ?? 0)} — ${parts.join(" · ")}`;
  };
  const plot = new uPlot(
    {
      width: Math.max(280, container.clientWidth),
      height: container.clientWidth < 600 ? 200 : 260,
      tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), zone),
      legend: { show: false },
      cursor: { drag: { x: false, y: false } },
      scales: { y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
      axes: chartAxes((t) => `${options.formatAxis(t)} s`),
      series: [
        {},
        ...data.lines.map((line) => ({
          label: line.label,
          stroke: processingColour(line),
          width: line.kind === "percentile" ? 2 : 2.5,
          ...(line.kind === "percentile" ? { dash: PERCENTILE_DASH } : {}),
          points: { show: data.x.length <= 60, size: 4 },
          spanGaps: false,
        })),
      ],
      hooks: { setCursor: [showReadout] },
    },
    [data.x, ...data.lines.map((line) => line.values)] as uPlot.AlignedData,
    container,
  );
  const resize = new ResizeObserver(() => {
    const width = Math.max(280, container.clientWidth);
    if (width !== plot.width) plot.setSize({ width, height: width < 600 ? 200 : 260 });
  });
  resize.observe(container);
  return {
    destroy() {
      resize.disconnect();
      plot.destroy();
    },
  };
}
