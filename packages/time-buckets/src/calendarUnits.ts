import { DAY_MS, WEEK_MS } from "./tiers";
import { floorUtc, nextUtc, utcMonthStart } from "./utcBuckets";

/**
 * Calendar units on a UTC time line: the stored tiers' hour, day, `week` (ISO: Monday first) and
 * month, and the units no tier stores: weeks starting on Sunday, quarters (January, April, July,
 * October) and years. A query planner applies them to a zone's wall clock encoded as UTC, so they
 * are the zone's local calendar too.
 */
export const CALENDAR_UNITS = ["hour", "day", "week", "sundayWeek", "month", "quarter", "year"] as const;
export type CalendarUnit = (typeof CALENDAR_UNITS)[number];

const MONTHS_IN = { month: 1, quarter: 3, year: 12 } as const;

/** The first instant of the unit's months containing `atMs` (a quarter or a year is months). */
function floorMonths(months: number, atMs: number): number {
  const d = new Date(atMs);
  const month = d.getUTCMonth();
  return utcMonthStart(d.getUTCFullYear(), month - (month % months));
}

/** Start (Unix time, ms) of the unit containing `atMs`. */
export function floorCalendar(unit: CalendarUnit, atMs: number): number {
  switch (unit) {
    case "hour":
    case "day":
    case "week":
    case "month":
      return floorUtc(unit, atMs);
    // The Sunday before an ISO week's Monday: a Sunday belongs to the week the next Monday starts.
    case "sundayWeek":
      return floorUtc("week", atMs + DAY_MS) - DAY_MS;
    case "quarter":
    case "year":
      return floorMonths(MONTHS_IN[unit], atMs);
  }
}

/** Start of the unit after the one starting at `startMs` (which must be a unit's start). */
export function nextCalendar(unit: CalendarUnit, startMs: number): number {
  switch (unit) {
    case "hour":
    case "day":
    case "week":
    case "month":
      return nextUtc(unit, startMs);
    case "sundayWeek":
      return startMs + WEEK_MS;
    case "quarter":
    case "year": {
      const d = new Date(startMs);
      return utcMonthStart(d.getUTCFullYear(), d.getUTCMonth() + MONTHS_IN[unit]);
    }
  }
}
