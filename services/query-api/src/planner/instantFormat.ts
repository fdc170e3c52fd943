import { MINUTE_MS } from "@vu/time-buckets";
import { DateTime, type Zone } from "luxon";
import { formatUtcOffset } from "./utcOffset";

/**
 * An instant as ISO 8601 in `zone`, with milliseconds and the zone's offset at that instant:
 * `2026-11-02T00:00:00.000+01:00`, or `...Z` when the zone is UTC (luxon writes `Z` for the fixed
 * zero offset, which is how every UTC zone is represented here; see timeZone.ts).
 */
export function formatInstant(atMs: number, zone: Zone): string {
  const text = DateTime.fromMillis(atMs, { zone }).toISO({ suppressMilliseconds: false });
  // toISO is only null for an invalid DateTime, i.e. an instant outside Date's range.
  if (text === null) throw new RangeError(`cannot format instant ${atMs}`);
  return text;
}

/**
 * The same text as formatInstant when the offset at `atMs` is already known, without another
 * zone look-up (bucket labels are formatted by the thousand). Falls back to luxon for what plain
 * Date formatting cannot write the same way: years outside 0000–9999 and the fractional-minute
 * offsets of local mean time before ~1900.
 */
export function formatAtOffset(atMs: number, offsetMinutes: number, zone: Zone): string {
  const wall = new Date(atMs + offsetMinutes * MINUTE_MS).toISOString();
  if (!Number.isInteger(offsetMinutes) || wall.length !== 24) return formatInstant(atMs, zone);
  const suffix = zone.isUniversal && offsetMinutes === 0 ? "Z" : formatUtcOffset(offsetMinutes);
  return wall.slice(0, 23) + suffix;
}
