import { floorUtc, HOUR_MS, QUARTER_MS, type Tier } from "@vu/time-buckets";

/**
 * Hour blocks keep their cells split by UTC quarter hour: each field is the quarter's digit (0-3)
 * followed by the field (a combination id, a projection value, `*`). Quarter hours so cost no keys
 * of their own (a key costs Redis more than the cells of a sparse block), a zone on quarter-hour
 * offsets reads each hour key once for every bucket that touches it, and a whole hour is still one
 * key: the sum of its four quarters.
 */
export const QUARTERED_TIER: Tier = "hour";

export const QUARTERS_PER_HOUR = HOUR_MS / QUARTER_MS;

/** A stored part read for a block reference: a whole unsplit block, a whole split hour, or one quarter. */
export const WHOLE_BLOCK = -1;
export const ALL_QUARTERS = 4;

/** The quarter (0-3) of its UTC hour that `epochMs` falls in. */
export function quarterIndex(epochMs: number): number {
  return Math.floor((epochMs - floorUtc("hour", epochMs)) / QUARTER_MS);
}

/** The stored field of a projection or total cell in quarter `q` of a split hour block. */
export function quarterField(q: number, field: string): string {
  return String(q) + field;
}

/**
 * A combination's index in a split hour block of the batch: the apply script turns
 * `QUARTERS_PER_HOUR × index + q` into the field `q` .. combination id (see `includes/readBlock.lua`).
 */
export function quarterComboIndex(q: number, comboIndex: number): number {
  return QUARTERS_PER_HOUR * comboIndex + q;
}

/** The key a block reference is stored under (tier and start) and the part of it that it is. */
export function storedLocation(tier: Tier, startMs: number): { tier: Tier; startMs: number; part: number } {
  if (tier === "quarter")
    return { tier: QUARTERED_TIER, startMs: floorUtc("hour", startMs), part: quarterIndex(startMs) };
  return { tier, startMs, part: tier === QUARTERED_TIER ? ALL_QUARTERS : WHOLE_BLOCK };
}
