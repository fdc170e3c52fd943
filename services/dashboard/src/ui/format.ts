import { DateTime } from "luxon";
import type { Granularity } from "../state/vocabulary";

const integer = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const decimal = new Intl.NumberFormat(undefined, { maximumFractionDigits: 1 });
const precise = new Intl.NumberFormat(undefined, { maximumFractionDigits: 3 });

export const formatInteger = (n: number): string => integer.format(n);
export const formatDecimal = (n: number): string => decimal.format(n);
export const formatPrecise = (n: number): string => precise.format(n);

/** Compact axis labels: 1.2k, 3.4M. */
const compact = new Intl.NumberFormat(undefined, { notation: "compact", maximumFractionDigits: 1 });
export const formatCompact = (n: number): string => compact.format(n);

const BUCKET_FORMAT: Readonly<Record<Granularity, string>> = {
  hour: "ccc d LLL yyyy, HH:mm",
  day: "ccc d LLL yyyy",
  week: "'Week of' d LLL yyyy",
  month: "LLLL yyyy",
  quarter: "'Q'q yyyy",
  year: "yyyy",
};

/** A bucket's start as the API wrote it (with its offset), in words for its granularity. */
export function formatBucket(timeBucket: string, granularity: Granularity): string {
  const time = DateTime.fromISO(timeBucket, { setZone: true });
  return time.isValid ? time.toFormat(BUCKET_FORMAT[granularity]) : timeBucket;
}

/** The resolved range the API reports in `meta`, end exclusive, shown as the last instant included. */
export function formatRange(start: string, end: string): string {
  const from = DateTime.fromISO(start, { setZone: true });
  const to = DateTime.fromISO(end, { setZone: true });
  if (!from.isValid || !to.isValid) return `${start} – ${end}`;
  const wholeDays = from.equals(from.startOf("day")) && to.equals(to.startOf("day"));
  const pattern = wholeDays ? "d LLL yyyy" : "d LLL yyyy, HH:mm";
  const last = wholeDays ? to.minus({ days: 1 }) : to;
  return `${from.toFormat(pattern)} – ${last.toFormat(pattern)}`;
}

const percent = new Intl.NumberFormat(undefined, {
  style: "percent",
  maximumFractionDigits: 1,
  signDisplay: "exceptZero",
});
/** The API's relative change (a fraction, 0.123 = 12.3 % more) as a signed percentage. */
export const formatChange = (fraction: number): string => percent.format(fraction);

/** An instant (the API's `X-Data-As-Of`) to the second, in the view's zone; null if unreadable. */
export function formatInstant(iso: string, zone: string): string | null {
  const time = DateTime.fromISO(iso, { zone });
  return time.isValid ? time.toFormat("d LLL yyyy, HH:mm:ss") : null;
}
