import { DateTime, IANAZone } from "luxon";
import type { RangePreset } from "./vocabulary";

/** A half-open range [start, end) in the view's zone (docs/contract.md §2: the API's ranges are half-open). */
export interface ZonedRange {
  start: DateTime;
  end: DateTime;
}

/** Names luxon (and so the browser's Intl) knows as IANA zones, plus "UTC". */
export function isKnownZone(zone: string): boolean {
  return IANAZone.isValidZone(zone);
}

/** The browser's own zone, the default view zone; UTC where the browser does not say. */
export function browserZone(): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  return zone && isKnownZone(zone) ? zone : "UTC";
}

/**
 * A preset's range at `nowMs`, by the calendar of `zone`: "last 7 days" is today and the 6 local
 * days before it, whatever their length across a DST change; months and quarters are calendar
 * ones. Only "last 24 hours" is a duration (ending at the next whole minute, the API's resolution).
 */
export function presetRange(preset: RangePreset, nowMs: number, zone: string): ZonedRange {
  const now = DateTime.fromMillis(nowMs, { zone });
  const today = now.startOf("day");
  const tomorrow = today.plus({ days: 1 });
  switch (preset) {
    case "last_24_hours": {
      const end = now.startOf("minute").equals(now) ? now : now.startOf("minute").plus({ minutes: 1 });
      return { start: end.minus({ hours: 24 }), end };
    }
    case "last_7_days":
      return { start: today.minus({ days: 6 }), end: tomorrow };
    case "last_30_days":
      return { start: today.minus({ days: 29 }), end: tomorrow };
    case "this_month": {
      const start = now.startOf("month");
      return { start, end: start.plus({ months: 1 }) };
    }
    case "last_month": {
      const end = now.startOf("month");
      return { start: end.minus({ months: 1 }), end };
    }
    case "last_quarter": {
      const end = now.startOf("quarter");
      return { start: end.minus({ quarters: 1 }), end };
    }
  }
}

/** A custom range of whole local days, `to` included (as the API reads a date-only end_date). */
export function customRange(from: string, to: string, zone: string): ZonedRange | null {
  const start = DateTime.fromISO(from, { zone });
  const last = DateTime.fromISO(to, { zone });
  if (!start.isValid || !last.isValid) return null;
  return { start: start.startOf("day"), end: last.startOf("day").plus({ days: 1 }) };
}

/** A local calendar date as `<input type="date">` and the URL write it. */
export const localDate = (time: DateTime): string => time.toFormat("yyyy-MM-dd");

/** An instant as the API reads it: ISO 8601 with the zone's offset, so no local time is ambiguous. */
export const apiInstant = (time: DateTime): string =>
  time.toISO({ suppressMilliseconds: true, includeOffset: true }) ?? "";
