import type { Zone } from "luxon";
import { DAY_MS, instantOf, MINUTE_MS, queryZone, readDate } from "./dates";

export interface RangeParams {
  start_date?: string | undefined;
  end_date?: string | undefined;
  timezone?: string | undefined;
}

export interface OracleRange {
  startMs: number;
  endMs: number;
  zone: Zone;
  zoneName: string;
}

/** A 400 the oracle expects, naming the parameter the error must name. */
export class ExpectedBadRequest extends Error {
  constructor(readonly parameter: string) {
    super(`400 expected for ${parameter}`);
  }
}

/**
 * docs/contract.md §2 "Range": half-open; a date-only start is 00:00 and a date-only end 00:00 of the next
 * day; defaults end = now, start = end − 7 × 24 h; start after end is a 400; then widened to whole
 * minutes (start floored, end rounded up).
 */
export function resolveRange(params: RangeParams, nowMs: number): OracleRange {
  const start = params.start_date === undefined ? null : readDate(params.start_date);
  if (params.start_date !== undefined && start === null) throw new ExpectedBadRequest("start_date");
  const end = params.end_date === undefined ? null : readDate(params.end_date);
  if (params.end_date !== undefined && end === null) throw new ExpectedBadRequest("end_date");
  const zone = queryZone(params.timezone, start);
  if (zone === null) throw new ExpectedBadRequest("timezone");

  const endMs = end === null ? nowMs : instantOf(end, "end", zone.zone);
  const startMs = start === null ? endMs - 7 * DAY_MS : instantOf(start, "start", zone.zone);
  if (startMs > endMs) throw new ExpectedBadRequest("start_date");
  return {
    startMs: Math.floor(startMs / MINUTE_MS) * MINUTE_MS,
    endMs: Math.ceil(endMs / MINUTE_MS) * MINUTE_MS,
    zone: zone.zone,
    zoneName: zone.name,
  };
}
