import { DIMENSION_INDEX, DIMENSIONS, type Dimension } from "@vu/events";
import type { ComboValues } from "@vu/store";

/** One `filter[<dimension>]` parameter after parsing (docs/contract.md §2 "Filters"). */
export interface DimensionFilter {
  dimension: Dimension;
  values: ReadonlySet<string>;
  /** `filter[language_model]` may name the literal item `null`: recordings without one. */
  matchesNull: boolean;
}

export type RawFilters = Partial<Record<Dimension, string | undefined>>;

/**
 * Comma-separated lists: items trimmed, empty items dropped, a list left empty is no filter.
 * E-mails compare case-insensitively, as they are stored lower-cased.
 */
export function parseFilters(raw: RawFilters): DimensionFilter[] {
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
    filters.push({ dimension, values: new Set(items), matchesNull });
  }
  return filters;
}

/** Items of one filter are ORed; several filters are ANDed. */
export function comboMatches(values: ComboValues, filters: readonly DimensionFilter[]): boolean {
  return filters.every(({ dimension, values: wanted, matchesNull }) => {
    const value = values[DIMENSION_INDEX[dimension]];
    return value === null ? matchesNull : wanted.has(value);
  });
}
