import { DIMENSION_INDEX, DIMENSIONS, type Dimension, type DimensionValues } from "@vu/events";

/**
 * One `filter[<dimension>]` parameter after parsing (docs/contract.md §2 "Filters"), or one
 * `exclude[<dimension>]` (§7: the same list, NOT IN).
 */
export interface DimensionFilter {
  dimension: Dimension;
  values: ReadonlySet<string>;
  /** `[language_model]` may name the literal item `null`: recordings without one. */
  matchesNull: boolean;
  /** `exclude[...]`: a recording passes when its value matches none of the items. */
  excludes: boolean;
}

export type RawFilters = Partial<Record<Dimension, string | undefined>>;

/**
 * Comma-separated lists: items trimmed, empty items dropped, a list left empty is no filter.
 * E-mails compare case-insensitively, as they are stored lower-cased.
 */
function parseLists(raw: RawFilters, excludes: boolean): DimensionFilter[] {
  const filters: DimensionFilter[] = [];
  for (const dimension of DIMENSIONS) {
    const list = raw[dimension];
    if (list === undefined) continue;
    let items = list
      .split(",")
      .map((item) => item.trim())
      .filter((item) => item.length > 0);
    if (dimension === "member_email") items = items.map((item) => item.toLowerCase());
    if (items.length === 0) continue;
    const matchesNull = dimension === "language_model" && items.includes("null");
    filters.push({ dimension, values: new Set(items), matchesNull, excludes });
  }
  return filters;
}

/** The `filter[...]` lists, then the `exclude[...]` lists: every one of them must pass (AND). */
export function parseFilters(raw: RawFilters, exclusions: RawFilters = {}): DimensionFilter[] {
  return [...parseLists(raw, false), ...parseLists(exclusions, true)];
}

/** Whether one dimension's value passes one filter: in its items (OR), or in none when it excludes. */
export function valuePasses(filter: DimensionFilter, value: string | null): boolean {
  const matches = value === null ? filter.matchesNull : filter.values.has(value);
  return matches !== filter.excludes;
}

/** Items of one filter are ORed; several filters (and exclusions) are ANDed. */
export function comboMatches(values: DimensionValues, filters: readonly DimensionFilter[]): boolean {
  return filters.every((filter) => valuePasses(filter, values[DIMENSION_INDEX[filter.dimension]] ?? null));
}
