import { HOUR_MS } from "./timeZoneOffsets";
import { rangeHours, zoneActivity } from "./zoneHours";

export interface TimelineZone {
  timeZone: string;
  /** Relative amount of recording done from this zone (its members' summed activity). */
  share: number;
}

export interface TimelineOptions {
  fromMs: number;
  toMs: number;
  zones: readonly TimelineZone[];
}

/**
 * Recording activity over [fromMs, toMs), hour by hour, summed over the members' home zones:
 * turns a position in [0, 1) of the cumulative activity into an instant (inverse-CDF sampling).
 */
export interface Timeline {
  /**
   * The instant at `position`. Positions must not decrease from call to call: the timeline walks
   * forward through its hours instead of searching them, which keeps a sorted stream O(1) per event.
   */
  advance(position: number): number;
  /** The zone (index into `zones`) the last instant's recording came from, weighted by activity. */
  pickZone(uniform: number): number;
}

/**
 * A light view over the tables every organization shares (`zoneHours.ts`): its own state is its
 * zones' shares and a cursor, and the cumulative activity is summed as the cursor walks.
 */
export function createTimeline({ fromMs, toMs, zones }: TimelineOptions): Timeline {
  if (!(Number.isFinite(fromMs) && Number.isFinite(toMs) && fromMs < toMs)) {
    throw new RangeError(`need fromMs < toMs, got [${fromMs}, ${toMs})`);
  }
  if (zones.length === 0) throw new RangeError("need at least one zone");
  const hours = rangeHours(fromMs, toMs);
  const { firstHour, hourCount, scale } = hours;
  const zoneCount = zones.length;
  const shares = Float64Array.from(zones, ({ share }) => share);
  const activities = zones.map(({ timeZone }) => zoneActivity(timeZone, hours));
  const zoneWeight = (hour: number, zone: number) =>
    weigh(shares[zone] ?? 0, scale[hour] ?? 0, activities[zone]?.[hour] ?? 0);
  const sumHour = (hour: number) => {
    let sum = 0;
    for (let zone = 0; zone < zoneCount; zone++) sum += zoneWeight(hour, zone);
    return sum;
  };
  // The cumulative weight is summed hour after hour, once for the total and again as the cursor
  // walks, in the same order: the same additions give the same values without storing them.
  const total = totalWeight(hourCount, scale, shares, activities);

  let cursor = 0;
  let cursorSum = sumHour(0);
  let before = 0;
  let through = cursorSum;
  const hourStart = (hour: number) => Math.max(fromMs, (firstHour + hour) * HOUR_MS);
  const hourEnd = (hour: number) => Math.min(toMs, (firstHour + hour + 1) * HOUR_MS);
  return {
    advance(position) {
      const target = position * total;
      while (cursor < hourCount - 1 && through <= target) {
        cursor++;
        cursorSum = sumHour(cursor);
        before = through;
        through = before + cursorSum;
      }
      const weight = through - before;
      const fraction = weight > 0 ? Math.min(Math.max((target - before) / weight, 0), 1) : 0;
      const start = hourStart(cursor);
      const end = hourEnd(cursor);
      // Floating point may land exactly on the hour's end, which belongs to the next hour (or is `toMs`).
      return Math.min(start + Math.floor(fraction * (end - start)), end - 1);
    },
    pickZone(uniform) {
      let remaining = uniform * cursorSum;
      for (let zone = 0; zone < zoneCount - 1; zone++) {
        remaining -= zoneWeight(cursor, zone);
        if (remaining < 0) return zone;
      }
      return zoneCount - 1;
    },
  };
}

/**
 * The weight of one zone in one hour. The order of the factors is part of the output: floating
 * point is not associative, and every event depends on these sums.
 */
function weigh(share: number, scale: number, activity: number): number {
  return share * scale * activity;
}

/** Scratch for `totalWeight`, reused (timelines are built one at a time): allocating it costs more. */
let hourSums = new Float64Array(0);

/**
 * Σ over hours of Σ over zones of `weigh`, added in the order `sumHour` adds them (0 + zone 0 +
 * zone 1 …, then hour after hour), but walking zone by zone through the tables, which is faster.
 */
function totalWeight(
  hourCount: number,
  scale: Float64Array,
  shares: Float64Array,
  activities: readonly Float64Array[],
): number {
  if (hourSums.length < hourCount) hourSums = new Float64Array(hourCount);
  const sums = hourSums;
  sums.fill(0, 0, hourCount);
  activities.forEach((activity, zone) => {
    const share = shares[zone] ?? 0;
    for (let hour = 0; hour < hourCount; hour++) {
      sums[hour] = (sums[hour] ?? 0) + weigh(share, scale[hour] ?? 0, activity[hour] ?? 0);
    }
  });
  let total = 0;
  for (let hour = 0; hour < hourCount; hour++) total += sums[hour] ?? 0;
  return total;
}
