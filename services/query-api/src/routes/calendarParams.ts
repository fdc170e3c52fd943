import "zod-openapi";
import { z } from "zod";
import { type StatsGranularity, WEEK_STARTS, type WeekStart } from "../planner";

// docs/contract.md §9's calendar parameters of `/stats`, and what naming any §9 parameter adds to
// every row.

/** `week_start=sunday`: weeks from Sunday 00:00 local time; `monday` (the default) is ISO's week. */
export const weekStartParam = z.enum(WEEK_STARTS).optional().meta({
  description:
    "The day weeks start on (granularity=week), at local midnight in the query zone: monday (ISO weeks, the default) or sunday. Naming it, either value, adds complete to every row.",
});

/** The granularities §9 adds; the seed's and §7's (`all`) are not §9 parameters. */
const SECTION_9_GRANULARITIES: ReadonlySet<StatsGranularity> = new Set(["quarter", "year"]);

/**
 * docs/contract.md §9: rows carry `complete` when the request names any §9 parameter of `/stats`:
 * `week_start` (whatever its value, `monday` too), `granularity=quarter|year`, `include` or
 * `percentiles`. Without one, every answer is what it was before §9, byte for byte.
 */
export function sendsComplete(query: {
  granularity: StatsGranularity;
  week_start?: WeekStart | undefined;
  include?: string | undefined;
  percentiles?: readonly number[] | undefined;
}): boolean {
  return (
    query.week_start !== undefined ||
    SECTION_9_GRANULARITIES.has(query.granularity) ||
    query.include !== undefined ||
    query.percentiles !== undefined
  );
}
