import { activityAt, growthAt } from "./activityCurve";
import { HOUR_MS, hourlyOffsets } from "./timeZoneOffsets";

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

const HALF_HOUR_MS = HOUR_MS / 2;
const MINUTE_MS = 60_000;

export function createTimeline({ fromMs, toMs, zones }: TimelineOptions): Timeline {
  if (!(Number.isFinite(fromMs) && Number.isFinite(toMs) && fromMs < toMs)) {
    throw new RangeError(`need fromMs < toMs, got [${fromMs}, ${toMs})`);
  }
  if (zones.length === 0) throw new RangeError("need at least one zone");
  const firstHour = Math.floor(fromMs / HOUR_MS);
  const hourCount = Math.ceil(toMs / HOUR_MS) - firstHour;
  const zoneWeights = weighZones({ fromMs, toMs, zones }, firstHour, hourCount);
  const cumulative = new Float64Array(hourCount);
  let total = 0;
  for (let hour = 0; hour < hourCount; hour++) {
    total += sumHour(zoneWeights, zones.length, hour);
    cumulative[hour] = total;
  }

  let cursor = 0;
  const hourStart = (hour: number) => Math.max(fromMs, (firstHour + hour) * HOUR_MS);
  const hourEnd = (hour: number) => Math.min(toMs, (firstHour + hour + 1) * HOUR_MS);
  return {
    advance(position) {
      const target = position * total;
      while (cursor < hourCount - 1 && (cumulative[cursor] ?? total) <= target) cursor++;
      const before = cursor > 0 ? (cumulative[cursor - 1] ?? 0) : 0;
      const weight = (cumulative[cursor] ?? total) - before;
      const fraction = weight > 0 ? Math.min(Math.max((target - before) / weight, 0), 1) : 0;
      const start = hourStart(cursor);
      const end = hourEnd(cursor);
      // Floating point may land exactly on the hour's end, which belongs to the next hour (or is `toMs`).
      return Math.min(start + Math.floor(fraction * (end - start)), end - 1);
    },
    pickZone(uniform) {
      let remaining = uniform * sumHour(zoneWeights, zones.length, cursor);
      for (let zone = 0; zone < zones.length - 1; zone++) {
        remaining -= zoneWeights[cursor * zones.length + zone] ?? 0;
        if (remaining < 0) return zone;
      }
      return zones.length - 1;
    },
  };
}

/**
 * Weight of each (hour, zone), laid out hour-major so a zone pick reads adjacent entries. An hour
 * counts by its local wall clock at its middle (so +05:30 zones use the hour they mostly cover), and
 * partial first and last hours by the part inside the range.
 */
function weighZones({ fromMs, toMs, zones }: TimelineOptions, firstHour: number, hourCount: number) {
  const offsets = zones.map(({ timeZone }) => hourlyOffsets(timeZone, firstHour, hourCount));
  const weights = new Float64Array(hourCount * zones.length);
  for (let hour = 0; hour < hourCount; hour++) {
    const startMs = (firstHour + hour) * HOUR_MS;
    const covered = (Math.min(toMs, startMs + HOUR_MS) - Math.max(fromMs, startMs)) / HOUR_MS;
    const scale = covered * growthAt((hour + 0.5) / hourCount);
    zones.forEach(({ share }, zone) => {
      const offsetMinutes = offsets[zone]?.[hour] ?? 0;
      const local = startMs + HALF_HOUR_MS + offsetMinutes * MINUTE_MS;
      weights[hour * zones.length + zone] = share * scale * activityAt(local);
    });
  }
  return weights;
}

function sumHour(zoneWeights: Float64Array, zoneCount: number, hour: number): number {
  let sum = 0;
  for (let zone = 0; zone < zoneCount; zone++) sum += zoneWeights[hour * zoneCount + zone] ?? 0;
  return sum;
}
