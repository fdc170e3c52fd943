import type uPlot from "uplot";

/** Both charts' axes: time below, values on the left, in the page's greys; `label` writes a tick's value. */
export function chartAxes(label: (value: number) => string): uPlot.Axis[] {
  return [
    { stroke: "#3b3b3b", grid: { stroke: "#e4e4e4" }, ticks: { stroke: "#c8c8c8" } },
    {
      stroke: "#3b3b3b",
      grid: { stroke: "#e4e4e4" },
      ticks: { stroke: "#c8c8c8" },
      size: 56,
      values: (_u, ticks) => ticks.map(label),
    },
  ];
}
