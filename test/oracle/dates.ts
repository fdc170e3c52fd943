import { DateTime, FixedOffsetZone, IANAZone, type Zone } from "luxon";

export const MINUTE_MS = 60_000;
export const DAY_MS = 86_400_000;

/** A `start_date` / `end_date` as written (docs/contract.md / seed "Shared query parameters"). */
export interface WrittenDate {
  year: number;
  month: number;
  day: number;
  /** null for a date-only value. */
  time: { hour: number; minute: number; second: number; ms: number } | null;
  /** The offset written in the value, in minutes; null when none. */
  offset: number | null;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?)?(Z|[+-]\d{2}:?\d{2})?$/;
const OFFSET = /^(?:Z|([+-])(\d{2}):?(\d{2}))$/;

/** Minutes of a written offset; undefined when it is not one, null when out of range. */
export function readOffset(text: string): number | null | undefined {
  const m = OFFSET.exec(text);
  if (!m) return undefined;
  if (m[1] === undefined) return 0;
  const hours = Number(m[2]);
  const minutes = Number(m[3]);
  if (hours > 23 || minutes > 59) return null;
  return (m[1] === "-" ? -1 : 1) * (hours * 60 + minutes);
}

/** Parses a date parameter; null when it is not valid (a 400). */
export function readDate(text: string): WrittenDate | null {
  const m = DATE.exec(text);
  if (!m) return null;
  const [, y, mo, d, hh, mi, ss, fraction, zone] = m;
  const offset = zone === undefined ? null : readOffset(zone);
  if (offset === undefined || (zone !== undefined && offset === null)) return null;
  const date = { year: Number(y), month: Number(mo), day: Number(d) };
  if (!DateTime.fromObject(date, { zone: "utc" }).isValid) return null;
  if (hh === undefined) return { ...date, time: null, offset };
  const time = {
    hour: Number(hh),
    minute: Number(mi),
    second: Number(ss),
    // Fractions are truncated to milliseconds.
    ms: fraction === undefined ? 0 : Number(fraction.slice(0, 3).padEnd(3, "0")),
  };
  if (time.hour > 23 || time.minute > 59 || time.second > 59) return null;
  return { ...date, time, offset };
}

/** The query zone and its name for `meta.timezone`. */
export interface QueryZone {
  zone: Zone;
  name: string;
}

const UTC: QueryZone = { zone: FixedOffsetZone.utcInstance, name: "UTC" };

function offsetZone(minutes: number): QueryZone {
  if (minutes === 0) return UTC;
  const abs = Math.abs(minutes);
  const text = `${minutes < 0 ? "-" : "+"}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
  return { zone: FixedOffsetZone.instance(minutes), name: text };
}

/**
 * docs/contract.md §2 "Time zone": the `timezone` parameter (an offset or an IANA name), else the offset
 * written in `start_date`, else UTC. null for an unknown zone (a 400). The oracle only knows the
 * exact IANA spellings; the queries it is asked about use those.
 */
export function queryZone(timezone: string | undefined, start: WrittenDate | null): QueryZone | null {
  if (timezone === undefined) return start === null || start.offset === null ? UTC : offsetZone(start.offset);
  const offset = readOffset(timezone);
  if (offset === null) return null;
  if (offset !== undefined) return offsetZone(offset);
  if (timezone === "UTC") return UTC;
  return IANAZone.isValidZone(timezone) ? { zone: IANAZone.create(timezone), name: timezone } : null;
}

/**
 * The instant at which clocks in `zone` show the wall time `wallMs` (the wall time written as if it
 * were UTC). A time shown twice (the repeated autumn hour) is its first occurrence; a time never
 * shown (the skipped spring hour) moves forward by the gap (the documented planner decision).
 * Found the plain way: every offset the zone has within a day either side is a candidate.
 */
export function wallToInstant(wallMs: number, zone: Zone): number {
  const offsets = new Set<number>();
  for (let h = -26; h <= 26; h++) offsets.add(zone.offset(wallMs + h * 3_600_000));
  const matches = [...offsets]
    .map((offset) => wallMs - offset * MINUTE_MS)
    .filter((t) => zone.offset(t) * MINUTE_MS === wallMs - t)
    .sort((a, b) => a - b);
  if (matches[0] !== undefined) return matches[0];
  // In a gap: read with the offset in force before it, which lands as far past the jump.
  return wallMs - zone.offset(wallMs - DAY_MS) * MINUTE_MS;
}

/** Where a date parameter lies: its own offset if written, else the query zone. */
export function instantOf(date: WrittenDate, edge: "start" | "end", zone: Zone): number {
  const t = date.time ?? { hour: 0, minute: 0, second: 0, ms: 0 };
  let wall = Date.UTC(date.year, date.month - 1, date.day, t.hour, t.minute, t.second, t.ms);
  // A date-only end means 00:00 of the next day, so the end day is included.
  if (date.time === null && edge === "end") wall += DAY_MS;
  if (date.offset !== null) return wall - date.offset * MINUTE_MS;
  return wallToInstant(wall, zone);
}

/** ISO 8601 with milliseconds and the zone's offset at that instant, `Z` for UTC. */
export function formatIn(ms: number, zone: Zone): string {
  const text = DateTime.fromMillis(ms, { zone }).toISO({ suppressMilliseconds: false, includeOffset: true });
  if (text === null) throw new RangeError(`cannot format ${ms} in ${zone.name}`);
  return text;
}
