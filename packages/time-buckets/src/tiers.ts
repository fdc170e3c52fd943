/**
 * The stored tiers of the rollup store, finest first. Every tier is aligned in UTC; `week` is the
 * ISO week (Monday 00:00 UTC). Minute ⊂ hour ⊂ day nest exactly; week and month both nest days but
 * not each other, which is why the query planner's cover treats them specially.
 */
export const TIERS = ["minute", "hour", "day", "week", "month"] as const;
export type Tier = (typeof TIERS)[number];

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
export const WEEK_MS = 7 * DAY_MS;

/** One-letter codes used in Redis key names; kept here so the store and its docs agree. */
export const TIER_CODE: Readonly<Record<Tier, string>> = {
  minute: "m",
  hour: "h",
  day: "d",
  week: "w",
  month: "M",
};

export function isTier(value: string): value is Tier {
  return (TIERS as readonly string[]).includes(value);
}
