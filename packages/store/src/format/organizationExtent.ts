/**
 * Where an organization has data: from its first to its last counted `recorded_at` (ms, both
 * inclusive), as the apply script records them. `null`: it has no data at all. "unknown": it has
 * combinations but no extent, so nothing says where its data lies and readers must not skip anything.
 */
export type OrganizationExtent = { firstMs: number; lastMs: number } | null | "unknown";

/**
 * The extent's field that says every recording of the organization was counted with its percentile
 * sketches (docs/decisions/0027-percentile-sketches.md): set to SKETCHED_MARK by the apply script
 * with the organization's first recordings when the writer keeps sketches, removed by the first
 * batch counted without them. Without it (and with recordings), the sketches miss some recordings
 * and percentiles cannot be answered.
 */
export const SKETCHED_FIELD = "sketched";
/**
 * The value of SKETCHED_FIELD that says the sketches lie beside every key of cells, the total and
 * dimension projections' too (docs/decisions/0029-projection-sketches.md). Any other value was set
 * by a writer that kept them beside the combination cells only: such an organization reads as not
 * sketched until a rebuild counts it again, never answered from projections without sketches.
 */
export const SKETCHED_MARK = "2";

/**
 * The extent's field that says the organization keeps no dimension sets (`dim:<dimension>`) yet:
 * its dimension values are its combination table's (every combination names one value of each
 * dimension). Set to DIMENSIONS_FROM_COMBOS by the apply script with an organization's first
 * recordings; removed, in the same call that builds the sets from the whole table, once the table
 * would hold more than DIMENSION_SETS_FROM combinations. Without it the sets are kept (and always
 * were, for organizations counted before the field existed). Four sets are four keys, about a
 * kilobyte of Redis for a small organization whose table holds a handful of combinations.
 */
export const DIMENSIONS_FIELD = "dims";
export const DIMENSIONS_FROM_COMBOS = "c";
/**
 * Combinations past which an organization keeps its dimension sets: below it, listing its values
 * reads and decodes at most this many short entries; above, the table may grow to 100,000s, and a
 * set per dimension answers /stats/dimensions without reading it.
 */
export const DIMENSION_SETS_FROM = 100;

/** From `HMGET <extent> first last` and `EXISTS <combos>` (any data interns a combination). */
export function parseExtent(first: unknown, last: unknown, combosExist: unknown): OrganizationExtent {
  if (first != null && last != null) {
    const firstMs = Number(String(first));
    const lastMs = Number(String(last));
    if (Number.isFinite(firstMs) && Number.isFinite(lastMs)) return { firstMs, lastMs };
  }
  return Number(combosExist) > 0 ? "unknown" : null;
}

/** Whether two reads of an extent are the same state. */
export function sameExtent(a: OrganizationExtent, b: OrganizationExtent): boolean {
  if (a === null || b === null || a === "unknown" || b === "unknown") return a === b;
  return a.firstMs === b.firstMs && a.lastMs === b.lastMs;
}
