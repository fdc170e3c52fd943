import type { Dimension } from "@vu/events/vocabulary";
import type { StatsRow } from "../api/types";
import { DIMENSION_LABELS, TOP_N } from "../state/vocabulary";
import { el, scrollRegion } from "./dom";
import { COLUMNS, groupCells, metricCells } from "./statsTable";

/** The API's group value of the row that holds what `limit` cut (`other=true`). */
export const OTHER_GROUP = "(other)";

/**
 * A "top 10" table: the API's ranking of one dimension's groups over the whole range, by minutes,
 * and its "(other)" row, which sums every group past the tenth exactly. The rest row is told apart
 * by its place (last, docs/contract.md §7), so a member really named "(other)" stays a member.
 */
export function renderTopTable(dimension: Dimension, rows: readonly StatsRow[]): HTMLElement {
  const label = DIMENSION_LABELS[dimension];
  const title = `Top ${TOP_N} ${label.toLowerCase()}s by minutes`;
  const hasRest = rows.length > TOP_N;
  const body = rows.map((row, i) => {
    const rest = hasRest && i === rows.length - 1;
    const cells = groupCells(row, [dimension]);
    if (rest) cells[0]?.replaceChildren(`All other ${label.toLowerCase()}s`);
    return el(
      "tr",
      { class: rest ? "rest" : null, "data-rest": rest },
      el("th", { scope: "row", class: "num" }, rest ? "" : String(i + 1)),
      ...cells,
      ...metricCells(row),
    );
  });
  return el(
    "div",
    { class: "top-block", "data-dimension": dimension },
    el("h3", {}, title),
    rows.length === 0
      ? el("p", { class: "empty" }, "No recordings in this range.")
      : scrollRegion(
          title,
          el(
            "table",
            { class: "top-table" },
            el(
              "thead",
              {},
              el(
                "tr",
                {},
                el("th", { scope: "col", class: "num" }, "#"),
                el("th", { scope: "col" }, label),
                ...COLUMNS.map((c) => el("th", { scope: "col", class: "num" }, c.label)),
              ),
            ),
            el("tbody", {}, ...body),
          ),
        ),
  );
}
