import { DIMENSIONS, type Dimension } from "@vu/events/vocabulary";
import { ExpectedBadRequest } from "./range";

/** The seed's calendar units of `granularity`. */
export const SEED_GRANULARITIES = ["hour", "day", "week", "month"] as const;
/** docs/contract.md §9's. */
export const CALENDAR_GRANULARITIES = ["quarter", "year"] as const;
export const GRANULARITIES = [...SEED_GRANULARITIES, ...CALENDAR_GRANULARITIES] as const;
export type Granularity = (typeof GRANULARITIES)[number];
/** docs/contract.md §9 `week_start`. */
export const WEEK_STARTS = ["monday", "sunday"] as const;
export type WeekStart = (typeof WEEK_STARTS)[number];
/** The event's dimensions, declared once (@vu/events); the contract filters and groups by each. */
export { DIMENSIONS, type Dimension };

/** A query string as sent: ordered key/value pairs, repeats allowed (they are a 400). */
export type QueryPairs = ReadonlyArray<readonly [string, string]>;

const RANGE_KEYS = ["start_date", "end_date", "timezone"];
const FILTER_KEYS = DIMENSIONS.map((d) => `filter[${d}]`);
const EXCLUDE_KEYS = DIMENSIONS.map((d) => `exclude[${d}]`);
const SEED_SHARED_KEYS = [...RANGE_KEYS, ...FILTER_KEYS];
/** The seed's summary parameters, then docs/contract.md §7's, then §9's. */
export const SUMMARY_KEYS: readonly string[] = [
  ...SEED_SHARED_KEYS,
  ...EXCLUDE_KEYS,
  "compare",
  "include",
  "percentiles",
];
export const STATS_KEYS: readonly string[] = [
  ...SEED_SHARED_KEYS,
  "granularity",
  "group_by",
  "page",
  "page_size",
  "format",
  // docs/contract.md §7
  ...EXCLUDE_KEYS,
  "sort",
  "limit",
  "other",
  "fill",
  "compare",
  // docs/contract.md §9
  "week_start",
  "include",
  "percentiles",
];

/**
 * docs/contract.md §9 `percentiles`: up to four distinct whole numbers from 1 to 99, comma-separated
 * (blanks around items allowed), answered in ascending order; none: empty.
 */
export function readPercentiles(params: Map<string, string>): number[] {
  const text = params.get("percentiles");
  if (text === undefined) return [];
  const items = text.split(",").map((item) => item.trim());
  const values = items.map((item) => (/^[0-9]{1,2}$/.test(item) ? Number(item) : 0));
  if (values.some((q) => q < 1) || values.length > 4 || new Set(values).size !== values.length)
    throw new ExpectedBadRequest("percentiles");
  return values.sort((a, b) => a - b);
}

/** docs/contract.md §9 `include=active_members`: whether rows (and the summary) count members. */
export function readActiveMembers(params: Map<string, string>): boolean {
  return readEnum(params, "include", ["active_members"] as const) !== undefined;
}

/**
 * The parameters as a record, after the checks that need no dates: each given at most once, none
 * unknown (docs/contract.md §3). Throws ExpectedBadRequest naming the offending parameter.
 */
export function readPairs(pairs: QueryPairs, allowed: readonly string[]): Map<string, string> {
  const params = new Map<string, string>();
  for (const [key, value] of pairs) {
    if (params.has(key)) throw new ExpectedBadRequest(key);
    params.set(key, value);
  }
  for (const key of params.keys()) if (!allowed.includes(key)) throw new ExpectedBadRequest(key);
  return params;
}

/** A whole number within bounds, or a 400 naming the parameter. */
export function readInt(params: Map<string, string>, key: string, fallback: number, max: number): number {
  const text = params.get(key);
  if (text === undefined) return fallback;
  if (!/^\d+$/.test(text)) throw new ExpectedBadRequest(key);
  const value = Number(text);
  if (value < 1 || value > max) throw new ExpectedBadRequest(key);
  return value;
}

export function readEnum<T extends string>(
  params: Map<string, string>,
  key: string,
  allowed: readonly T[],
): T | undefined {
  const text = params.get(key);
  if (text === undefined) return undefined;
  const found = allowed.find((a) => a === text);
  if (found === undefined) throw new ExpectedBadRequest(key);
  return found;
}

/** One parsed filter: the items to match, and whether the literal `null` item was given. */
export interface Filter {
  dimension: Dimension;
  items: Set<string>;
  matchesNull: boolean;
  /** `exclude[...]` (docs/contract.md §7): passes when the value matches no item. */
  excludes?: boolean;
}

/**
 * docs/contract.md §2 "Filters": items trimmed, empty ones dropped, e-mails case-insensitive;
 * `kind` "exclude" reads §7's `exclude[...]` lists the same way.
 */
export function readFilters(params: Map<string, string>, kind: "filter" | "exclude" = "filter"): Filter[] {
  const filters: Filter[] = [];
  for (const dimension of DIMENSIONS) {
    const text = params.get(`${kind}[${dimension}]`);
    if (text === undefined) continue;
    const items = text
      .split(",")
      .map((item) => item.trim())
      .filter((item) => item !== "")
      .map((item) => (dimension === "member_email" ? item.toLowerCase() : item));
    if (items.length === 0) continue;
    filters.push({
      dimension,
      items: new Set(items),
      matchesNull: dimension === "language_model" && items.includes("null"),
      excludes: kind === "exclude",
    });
  }
  return filters;
}

export function matchesAll(
  values: Readonly<Record<Dimension, string | null>>,
  filters: readonly Filter[],
): boolean {
  return filters.every((f) => {
    const value = values[f.dimension];
    const matches = value === null ? f.matchesNull : f.items.has(value);
    return f.excludes ? !matches : matches;
  });
}
