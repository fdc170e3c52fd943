import { DIMENSIONS, type Dimension } from "@vu/events";

/**
 * Each block is stored in several views (the star-tree trade): the full combination view, needed
 * when a query filters or groups on two or more dimensions, plus a total and one projection per
 * dimension, which answer the common queries (no filter; filter and/or group on one dimension)
 * from at most a few hundred fields instead of every combination.
 */
export const VIEWS = ["combos", "total", ...DIMENSIONS] as const;
export type View = (typeof VIEWS)[number];

/** Where the projection views start in VIEWS: dimension d's view is VIEWS[PROJECTION_VIEW_OFFSET + d]. */
export const PROJECTION_VIEW_OFFSET = 2;

/** One-letter codes in key names (`b:<tier>:<stamp>:<code>`). */
export const VIEW_CODE: Readonly<Record<View, string>> = {
  combos: "c",
  total: "t",
  member_email: "m",
  voice_model: "v",
  language_model: "l",
  app_name: "a",
};

/** The single field of the total view. */
export const TOTAL_FIELD = "*";

/** A projection field: the value itself; a null language model is the empty string (values have ≥ 1 char). */
export function projectionField(value: string | null): string {
  return value ?? "";
}

export function projectionValue(field: string): string | null {
  return field === "" ? null : field;
}

/** The cheapest view that can answer a query filtering on `filtered` and grouping by `groupBy`. */
export function viewFor(filtered: readonly Dimension[], groupBy?: Dimension): View {
  const dims = new Set<Dimension>(filtered);
  if (groupBy) dims.add(groupBy);
  if (dims.size === 0) return "total";
  const [only] = dims;
  return dims.size === 1 && only !== undefined ? only : "combos";
}
