import { DIMENSIONS, type Dimension } from "@vu/events";

/**
 * A block placed `projected` is stored in several projections (the star-tree trade): its
 * combinations, needed when a query filters or groups on two or more dimensions, plus its total
 * and one projection per dimension, which answer the common queries (no filter; filter and/or
 * group on one dimension) from at most a few hundred fields instead of every combination.
 */
export const PROJECTIONS = ["combos", "total", ...DIMENSIONS] as const;
export type Projection = (typeof PROJECTIONS)[number];

/** Where the dimension projections start: dimension d's is PROJECTIONS[DIMENSION_PROJECTION_OFFSET + d]. */
export const DIMENSION_PROJECTION_OFFSET = 2;

/** One-letter codes in key names (`b:<tier>:<stamp>:<code>`). */
export const PROJECTION_CODE: Readonly<Record<Projection, string>> = {
  combos: "c",
  total: "t",
  member_email: "m",
  voice_model: "v",
  language_model: "l",
  app_name: "a",
};

/** The single field of the total projection. */
export const TOTAL_FIELD = "*";

/**
 * A dimension projection's field: the value itself; a null language model is the empty string
 * (values have ≥ 1 char).
 */
export function projectionField(value: string | null): string {
  return value ?? "";
}

export function projectionValue(field: string): string | null {
  return field === "" ? null : field;
}

/** The cheapest projection that can answer a query filtering on `filtered` and grouping by `groupBy`. */
export function projectionFor(filtered: readonly Dimension[], groupBy?: Dimension): Projection {
  const dims = new Set<Dimension>(filtered);
  if (groupBy) dims.add(groupBy);
  if (dims.size === 0) return "total";
  const [only] = dims;
  return dims.size === 1 && only !== undefined ? only : "combos";
}
