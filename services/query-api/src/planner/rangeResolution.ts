import { ceilUtc, DAY_MS, floorUtc } from "@vu/time-buckets";
import { FixedOffsetZone, type Zone } from "luxon";
import { keptAt, type PlanContext, type TimeRange } from "./block";
import { type DateParam, parseDateParam } from "./dateParam";
import { InvalidParameterError } from "./invalidParameterError";
import { ceilToGrid, floorToGrid } from "./retentionGrid";
import { resolveQueryZone } from "./timeZone";
import { nextDayWallClockMs, wallClockMs, wallClockToInstant } from "./wallClock";

/** The range parameters as received (strings, absent when not given). */
export interface RangeParams {
  startDate?: string | undefined;
  endDate?: string | undefined;
  timezone?: string | undefined;
}

/** The range actually answered: half-open, on block edges the store still holds. */
export interface ResolvedRange extends TimeRange {
  zone: Zone;
  /** The zone as reported in `meta.timezone`. */
  zoneName: string;
}

/** The default window when `start_date` is absent: 7 × 24 hours, not 7 calendar days. */
export const DEFAULT_WINDOW_MS = 7 * DAY_MS;

/**
 * The instant a date parameter denotes: read at its own offset when it has one, else in the query
 * zone. A date-only start is 00:00 of its day; a date-only end is 00:00 of the next day, so the end
 * day is included.
 */
function instantOf(param: DateParam, edge: "start" | "end", queryZone: Zone): number {
  const zone = param.offsetMinutes === null ? queryZone : FixedOffsetZone.instance(param.offsetMinutes);
  if (param.time !== null) return wallClockToInstant(wallClockMs(param.date, param.time), zone);
  const wall = edge === "end" ? nextDayWallClockMs(param.date) : wallClockMs(param.date);
  return wallClockToInstant(wall, zone);
}

/**
 * Resolves `start_date`, `end_date` and `timezone` into the range answered (docs/contract.md §2):
 * defaults (end = now, start = end − 7 × 24 h), then 400 when start is after end (start equal to
 * end is an empty range), then widened to whole minutes, then each bound widened to the finest
 * grid still stored at that instant (retentionGrid.ts). Throws InvalidParameterErrors naming the
 * parameter for malformed input.
 */
export function resolveRange(params: RangeParams, context: PlanContext): ResolvedRange {
  const start = params.startDate === undefined ? undefined : parseDateParam("start_date", params.startDate);
  const end = params.endDate === undefined ? undefined : parseDateParam("end_date", params.endDate);
  const { zone, name } = resolveQueryZone(params.timezone, start?.offsetMinutes ?? null);

  const endMs = end === undefined ? context.now : instantOf(end, "end", zone);
  const startMs = start === undefined ? endMs - DEFAULT_WINDOW_MS : instantOf(start, "start", zone);
  if (startMs > endMs) {
    throw new InvalidParameterError(
      "start_date",
      `must not be after end_date (${new Date(startMs).toISOString()} is after ${new Date(endMs).toISOString()})`,
    );
  }

  const isKept = keptAt(context);
  return {
    startMs: floorToGrid(floorUtc("minute", startMs), isKept),
    endMs: ceilToGrid(ceilUtc("minute", endMs), isKept),
    zone,
    zoneName: name,
  };
}
