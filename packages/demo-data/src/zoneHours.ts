import { activityAt, growthAt } from "./activityCurve";
import { createBoundedCache } from "./boundedCache";
import { HOUR_MS, hourlyOffsets } from "./timeZoneOffsets";

/**
 * What a timeline needs that depends only on the range and on a zone, not on the organization:
 * built once and shared by every timeline over the same range, so that opening ten thousand
 * organizations' generators costs one table per zone, not one per organization.
 * A timeline weighs each of its zones' hours from these and the zone's share (`weigh` in
 * timeline.ts).
 */
export interface RangeHours {
  /** Unix time in hours of the hour holding `fromMs`. */
  firstHour: number;
  /** UTC hours touching [fromMs, toMs). */
  hourCount: number;
  /** Per hour: the part of it inside the range times the adoption growth at its middle. */
  scale: Float64Array;
}

/** Tables kept, in hours (8 bytes each): 32 MB, a few hundred zone-ranges of 13 months. */
const BUDGET_HOURS = 4_000_000;
const tables = createBoundedCache<Float64Array>(BUDGET_HOURS, (table) => table.length);

const HALF_HOUR_MS = HOUR_MS / 2;
const MINUTE_MS = 60_000;

export function rangeHours(fromMs: number, toMs: number): RangeHours {
  const firstHour = Math.floor(fromMs / HOUR_MS);
  const hourCount = Math.ceil(toMs / HOUR_MS) - firstHour;
  const scale = tables.get(`scale ${fromMs} ${toMs}`, () => {
    const built = new Float64Array(hourCount);
    for (let hour = 0; hour < hourCount; hour++) {
      const startMs = (firstHour + hour) * HOUR_MS;
      const covered = (Math.min(toMs, startMs + HOUR_MS) - Math.max(fromMs, startMs)) / HOUR_MS;
      built[hour] = covered * growthAt((hour + 0.5) / hourCount);
    }
    return built;
  });
  return { firstHour, hourCount, scale };
}

/**
 * Per hour of the range: the activity in `timeZone`. An hour counts by its local wall clock at its
 * middle (so +05:30 zones use the hour they mostly cover).
 */
export function zoneActivity(timeZone: string, { firstHour, hourCount }: RangeHours): Float64Array {
  return tables.get(`activity ${timeZone} ${firstHour} ${hourCount}`, () => {
    const offsets = hourlyOffsets(timeZone, firstHour, hourCount);
    const built = new Float64Array(hourCount);
    for (let hour = 0; hour < hourCount; hour++) {
      const startMs = (firstHour + hour) * HOUR_MS;
      built[hour] = activityAt(startMs + HALF_HOUR_MS + (offsets[hour] ?? 0) * MINUTE_MS);
    }
    return built;
  });
}
