import { DIMENSIONS } from "@vu/events";
import { DateTime } from "luxon";
import type { RawQuery } from "./rawQuery";

// The rollup the natural peers keep (ClickHouse's materialized view, PostgreSQL's rollup table):
// one row per organization, UTC quarter hour and combination of the four dimensions, holding the
// sums every metric of docs/contract.md §2 is computed from. The quarter hour is the finest grid
// every zone's local hours, days and months fall on while its offset is a whole number of quarter
// hours (Kolkata +05:30, Kathmandu +05:45, every zone of today's IANA database): a query buckets
// each quarter by its start, in the zone, and gets the raw events' exact answer.

export const QUARTER_MS = 15 * 60_000;
const HOUR_MS = 3_600_000;

/** The rollup table's name, in both peers. */
export const ROLLUP_TABLE = "recording_quarters";

/** A rollup row's key after the organization and the quarter: the dimensions, in their declared order. */
export const ROLLUP_DIMENSIONS = DIMENSIONS;

/**
 * A rollup row's sums, each with the raw aggregate it keeps. A processing time averages over the
 * recordings that have one (SQL's AVG), so its sum and its count of non-null values are kept apart.
 * No name is a raw column's or an answer's: ClickHouse's aliases are visible in the whole query, so
 * an answer named like a column it sums could stand for that column.
 */
export const ROLLUP_SUMS = {
  recordings: "count of recordings",
  words_sum: "sum of word_count",
  duration_ms_sum: "sum of duration_ms",
  voice_ms_sum: "sum of the non-null voice_processing_ms",
  voice_ms_count: "count of the non-null voice_processing_ms",
  llm_ms_sum: "sum of the non-null llm_processing_ms",
  llm_ms_count: "count of the non-null llm_processing_ms",
} as const;

export type RollupSum = keyof typeof ROLLUP_SUMS;

/** The zone's offset at an instant, in minutes (fractional for a historical offset in seconds). */
function offsetMinutes(zone: string, atMs: number): number {
  const local = DateTime.fromMillis(atMs, { zone });
  if (!local.isValid) throw new Error(`unknown time zone ${zone}`);
  return local.offset;
}

/**
 * Whether every offset the zone has in [fromMs, toMs] is a whole number of quarter hours, so that
 * each of its local hours, days and months starts on a UTC quarter hour. Offsets hold for months
 * at a time; an hourly step sees each one.
 */
export function zoneOnQuarterHours(zone: string, fromMs: number, toMs: number): boolean {
  for (let atMs = fromMs; atMs < toMs + HOUR_MS; atMs += HOUR_MS) {
    if (offsetMinutes(zone, Math.min(atMs, toMs)) % 15 !== 0) return false;
  }
  return true;
}

/**
 * The query's range for a quarter-hour rollup. Its bounds must be quarter hours and its buckets'
 * edges too (the zone's offsets whole quarter hours); otherwise a rollup row would straddle an
 * edge and the rollup could not answer exactly, so this throws rather than answer wrong.
 */
export function quarterRange(q: RawQuery): { fromMs: number; toMs: number } {
  if (q.fromMs % QUARTER_MS !== 0 || q.toMs % QUARTER_MS !== 0)
    throw new Error(
      `range ${new Date(q.fromMs).toISOString()} → ${new Date(q.toMs).toISOString()} is not on UTC quarter hours`,
    );
  if (q.kind !== "summary" && !zoneOnQuarterHours(q.zone, q.fromMs, q.toMs))
    throw new Error(`${q.zone} has an offset that is not whole quarter hours in the range`);
  return { fromMs: q.fromMs, toMs: q.toMs };
}
