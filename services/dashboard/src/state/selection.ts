import type { Dimension } from "@vu/events/vocabulary";
import type { ScreenState } from "./screenState";

/** Whether a dimension's selected values are the only ones kept (`filter[...]`) or left out (`exclude[...]`). */
export type SelectionMode = "keep" | "leave_out";

export interface Selection {
  mode: SelectionMode;
  values: readonly string[];
}

/** A dimension's selection as its control shows it: one list, kept or left out. */
export function selectionOf(view: ScreenState, dimension: Dimension): Selection {
  const left = view.exclude[dimension];
  return left.length > 0
    ? { mode: "leave_out", values: left }
    : { mode: "keep", values: view.filters[dimension] };
}

/** The view's filters and exclusions with one dimension's selection replaced. */
export function withSelection(
  view: ScreenState,
  dimension: Dimension,
  selection: Selection,
): Pick<ScreenState, "filters" | "exclude"> {
  const keep = selection.mode === "keep" ? selection.values : [];
  const leaveOut = selection.mode === "leave_out" ? selection.values : [];
  return {
    filters: { ...view.filters, [dimension]: keep },
    exclude: { ...view.exclude, [dimension]: leaveOut },
  };
}

/** `group_by` with the dimension at `position` set (or cleared with null): no repeats, no gaps. */
export function withGroupAt(
  groupBy: readonly Dimension[],
  position: number,
  dimension: Dimension | null,
): Dimension[] {
  const next = groupBy.slice(0, position);
  if (dimension === null) return next;
  const rest = groupBy.slice(position + 1).filter((d) => d !== dimension);
  return [...next.filter((d) => d !== dimension), dimension, ...rest];
}
