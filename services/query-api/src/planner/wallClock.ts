import { DAY_MS, MINUTE_MS } from "@vu/time-buckets";
import type { Zone } from "luxon";
import type { DateParts, TimeParts } from "./dateParam";

const MIDNIGHT: TimeParts = { hour: 0, minute: 0, second: 0, millisecond: 0 };

/**
 * A wall-clock reading encoded as if it were UTC: the Unix time (ms) of the same digits at offset 0. Lets
 * calendar arithmetic (next day) use Date's UTC functions without any zone in play.
 */
export function wallClockMs(date: DateParts, time: TimeParts = MIDNIGHT): number {
  const d = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC maps years 0–99 to 1900–1999.
  d.setUTCFullYear(date.year, date.month - 1, date.day);
  d.setUTCHours(time.hour, time.minute, time.second, time.millisecond);
  return d.getTime();
}

/** The wall-clock reading one calendar day later (the end of a date-only `end_date`). */
export function nextDayWallClockMs(date: DateParts): number {
  return wallClockMs(date) + DAY_MS;
}

/**
 * The instant at which clocks in `zone` show `wallMs` (see wallClockMs).
 *
 * Deterministic at offset changes, unlike luxon's `fromObject`, which guesses with the offset in
 * force *today* and so answers differently in summer and winter:
 * - a reading that occurs twice (the repeated autumn hour) is the earlier instant, so a range or a
 *   day starts at the first moment that shows it;
 * - a reading that never occurs (the skipped spring hour, or a midnight skipped by a zone whose DST
 *   starts at 00:00) is moved forward by the gap, i.e. to the first instant after the jump, which
 *   is where that local day or hour actually begins.
 * Assumes at most one offset change within a day of the reading, which holds for every zone.
 */
export function wallClockToInstant(wallMs: number, zone: Zone): number {
  const before = zone.offset(wallMs - DAY_MS);
  const after = zone.offset(wallMs + DAY_MS);
  const candidates = [before, after]
    .map((offset) => ({ offset, instant: wallMs - offset * MINUTE_MS }))
    .filter((c) => zone.offset(c.instant) === c.offset)
    .map((c) => c.instant);
  if (candidates.length > 0) return Math.min(...candidates);
  // In a gap: read with the offset before the jump, the reading lands just as far past the jump.
  return wallMs - before * MINUTE_MS;
}
