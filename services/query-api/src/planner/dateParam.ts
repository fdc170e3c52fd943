import { InvalidParameterError } from "./invalidParameterError";
import { matchUtcOffset } from "./utcOffset";

export interface DateParts {
  year: number;
  /** 1–12 */
  month: number;
  /** 1–31 */
  day: number;
}

export interface TimeParts {
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
}

/** A parsed `start_date` / `end_date`: what was written, not yet placed on the time line. */
export interface DateParam {
  date: DateParts;
  /** null for a date-only value (`2026-11-01`). */
  time: TimeParts | null;
  /** The offset written in the value, minutes east of UTC; null when none was written. */
  offsetMinutes: number | null;
}

// The seed's format: date, optional `Thh:mm:ss` with optional fraction, then whatever follows is
// read as the zone (checked separately so an out-of-range offset gets its own message).
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?)?(.*)$/;

const FORMAT_MESSAGE =
  "must be an ISO 8601 date YYYY-MM-DD, optionally followed by Thh:mm:ss with optional fractional " +
  "seconds, and an optional zone (Z, +hh:mm or -hh:mm)";

export function daysInMonth(year: number, month: number): number {
  // Day 0 of the next month is the last day of this one; Date.UTC maps years 0–99 to 19xx, so the
  // year is set explicitly.
  const d = new Date(0);
  d.setUTCFullYear(year, month, 0);
  return d.getUTCDate();
}

/** Milliseconds of a fraction's digits: `5` → 500, `123456` → 123 (truncated, never rounded up). */
function fractionToMillis(digits: string | undefined): number {
  if (digits === undefined) return 0;
  return Number(digits.slice(0, 3).padEnd(3, "0"));
}

/**
 * Parses one date parameter. Throws a InvalidParameterError naming `parameter` when the value is not of
 * the seed's format or names a day or time that does not exist (2026-02-30, 24:00:00, second 60).
 */
export function parseDateParam(parameter: string, value: string): DateParam {
  const m = DATE_PATTERN.exec(value);
  if (!m) throw new InvalidParameterError(parameter, FORMAT_MESSAGE);
  const [, yyyy, mo, dd, hh, mi, ss, fraction, zone = ""] = m;

  // A space for `+` only after a time: `2026-11-01 10:00` is a mistyped date and time, never the
  // date at offset +10:00.
  if (zone.startsWith(" ") && hh === undefined) throw new InvalidParameterError(parameter, FORMAT_MESSAGE);
  let offsetMinutes: number | null = null;
  if (zone !== "") {
    const offset = matchUtcOffset(zone);
    if (offset === null) throw new InvalidParameterError(parameter, FORMAT_MESSAGE);
    if (!offset.ok) throw new InvalidParameterError(parameter, offset.message);
    offsetMinutes = offset.minutes;
  }

  const date = { year: Number(yyyy), month: Number(mo), day: Number(dd) };
  if (date.month < 1 || date.month > 12 || date.day < 1 || date.day > daysInMonth(date.year, date.month)) {
    throw new InvalidParameterError(parameter, `${yyyy}-${mo}-${dd} is not a calendar date`);
  }

  if (hh === undefined || mi === undefined || ss === undefined) return { date, time: null, offsetMinutes };
  const time = {
    hour: Number(hh),
    minute: Number(mi),
    second: Number(ss),
    millisecond: fractionToMillis(fraction),
  };
  // 24:00:00 and leap seconds are rejected: the end of a day is written as the next day's 00:00.
  if (time.hour > 23 || time.minute > 59 || time.second > 59) {
    throw new InvalidParameterError(parameter, `${hh}:${mi}:${ss} is not a time of day (00:00:00–23:59:59)`);
  }
  return { date, time, offsetMinutes };
}
