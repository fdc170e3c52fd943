import { DAY_MS, HOUR_MS, MINUTE_MS, QUARTER_MS, TIERS, type Tier, WEEK_MS } from "./tiers";

// 1970-01-05 was a Monday: ISO weeks are aligned to it.
const FIRST_MONDAY_MS = 4 * DAY_MS;

/** The first instant of a UTC month; unlike Date.UTC, years 0-99 are not read as 19xx. */
export function utcMonthStart(year: number, month: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month, 1);
  return d.getTime();
}

function floorTo(atMs: number, size: number, origin = 0): number {
  return Math.floor((atMs - origin) / size) * size + origin;
}

/** Start (Unix time, ms) of the UTC bucket of `tier` that contains `atMs`. */
export function floorUtc(tier: Tier, atMs: number): number {
  switch (tier) {
    case "minute":
      return floorTo(atMs, MINUTE_MS);
    case "quarter":
      return floorTo(atMs, QUARTER_MS);
    case "hour":
      return floorTo(atMs, HOUR_MS);
    case "day":
      return floorTo(atMs, DAY_MS);
    case "week":
      return floorTo(atMs, WEEK_MS, FIRST_MONDAY_MS);
    case "month": {
      const d = new Date(atMs);
      return utcMonthStart(d.getUTCFullYear(), d.getUTCMonth());
    }
  }
}

/** Start of the bucket after the one starting at `startMs` (which must be aligned). */
export function nextUtc(tier: Tier, startMs: number): number {
  switch (tier) {
    case "minute":
      return startMs + MINUTE_MS;
    case "quarter":
      return startMs + QUARTER_MS;
    case "hour":
      return startMs + HOUR_MS;
    case "day":
      return startMs + DAY_MS;
    case "week":
      return startMs + WEEK_MS;
    case "month": {
      const d = new Date(startMs);
      return utcMonthStart(d.getUTCFullYear(), d.getUTCMonth() + 1);
    }
  }
}

/** Smallest aligned start of `tier` at or after `atMs`. */
export function ceilUtc(tier: Tier, atMs: number): number {
  const floor = floorUtc(tier, atMs);
  return floor === atMs ? floor : nextUtc(tier, floor);
}

export function isAlignedUtc(tier: Tier, atMs: number): boolean {
  return floorUtc(tier, atMs) === atMs;
}

/** The bucket of every tier that contains `atMs`, finest first. */
export function bucketsOf(atMs: number): ReadonlyArray<{ tier: Tier; startMs: number }> {
  return TIERS.map((tier) => ({
    tier,
    startMs: floorUtc(tier, atMs),
  }));
}
