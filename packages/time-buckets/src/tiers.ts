/**
 * The stored tiers of the rollup store, finest first. Every tier is aligned in UTC; `week` is the
 * ISO week (Monday 00:00 UTC). Minute ⊂ quarter-hour ⊂ hour ⊂ day nest exactly; week and month both
 * nest days but not each other, which is why the query planner's cover treats them specially.
 * Quarter hours are kept as long as hours, so every zone whose offsets are whole quarter hours
 * (+05:30 Kolkata, +05:45 Kathmandu, Adelaide, St John's: every zone of today's IANA database) has
 * exact local hours and days for as long as hours are kept, not only while minutes are.
 */
export const TIERS = ["minute", "quarter", "hour", "day", "week", "month"] as const;
export type Tier = (typeof TIERS)[number];

export const MINUTE_MS = 60_000;
export const QUARTER_MS = 15 * MINUTE_MS;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
export const WEEK_MS = 7 * DAY_MS;

/** One-letter codes used in Redis key names; kept here so the store and its docs agree. */
export const TIER_CODE: Readonly<Record<Tier, string>> = {
  minute: "m",
  quarter: "q",
  hour: "h",
  day: "d",
  week: "w",
  month: "M",
};

export function isTier(value: string): value is Tier {
  return (TIERS as readonly string[]).includes(value);
}
