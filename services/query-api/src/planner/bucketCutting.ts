import { type CalendarUnit, floorCalendar, MINUTE_MS, nextCalendar } from "@vu/time-buckets";
import { DateTime, type Zone } from "luxon";
import type { OutputBucket, TimeRange } from "./block";
import { formatAtOffset } from "./instantFormat";
import { InvalidParameterError } from "./invalidParameterError";

/** docs/contract.md §3: a range needing more output buckets than this is a 400. */
export const MAX_BUCKETS = 10_000;

/** One output bucket: its part of the range, labelled with its full local start. */
export type { OutputBucket };

/** A bucket start: the instant and the zone's offset there (minutes east of UTC). */
interface Edge {
  ms: number;
  offset: number;
}

/** Each unit as `granularity` names it (a week is a week, whichever day it starts on). */
const GRANULARITY_OF: Record<CalendarUnit, string> = {
  hour: "hour",
  day: "day",
  week: "week",
  sundayWeek: "week",
  month: "month",
  quarter: "quarter",
  year: "year",
};

const PLURAL = {
  hour: "hours",
  day: "days",
  week: "weeks",
  sundayWeek: "weeks",
  month: "months",
  quarter: "quarters",
  year: "years",
} as const;

function edgeOf(dt: DateTime): Edge {
  return { ms: dt.toMillis(), offset: dt.offset };
}

/**
 * Luxon's start of the local unit holding `dt`. Luxon knows no week starting on Sunday: it is the
 * local day before the ISO week that the next day is in (`startOf("day")` again, for a zone whose
 * midnight can be skipped).
 */
function startOfUnit(dt: DateTime, unit: CalendarUnit): DateTime {
  if (unit !== "sundayWeek") return dt.startOf(unit);
  return dt.plus({ days: 1 }).startOf("week").minus({ days: 1 }).startOf("day");
}

/**
 * The reference stepping, through luxon: add one unit and take the start of that unit. Adding
 * hours works on instants, so the repeated autumn hour gives two buckets (02:00+02:00 and
 * 02:00+01:00) and a skipped hour none; days, weeks and months are calendar units, so a local day
 * lasts 23 or 25 hours. Where the offset moves by half an hour (Lord Howe), one hour later can
 * still be in the same local hour; adding more then finds the next one.
 */
function slowNext(start: Edge, unit: CalendarUnit, zone: Zone): Edge {
  const dt = DateTime.fromMillis(start.ms, { zone });
  for (let units = 1; units <= 3; units++) {
    const next = startOfUnit(dt.plus({ [PLURAL[unit]]: units }), unit);
    if (next.toMillis() > start.ms) return edgeOf(next);
  }
  throw new Error(`no ${unit} after ${dt.toISO()} in ${zone.name}`);
}

/**
 * The next bucket start. Luxon's stepping costs several zone look-ups per bucket, so the common
 * case is done by arithmetic on the wall clock: the next local unit start read at the current
 * offset. It is the answer when the zone still has that offset there (one look-up); only near
 * an offset change does it fall back to luxon. Wall-clock instants are UTC arithmetic in
 * disguise: `floorCalendar`/`nextCalendar` of the wall reading are the local calendar's.
 */
function nextEdge(start: Edge, unit: CalendarUnit, zone: Zone): Edge {
  const wall = start.ms + start.offset * MINUTE_MS;
  const candidate = nextCalendar(unit, floorCalendar(unit, wall)) - start.offset * MINUTE_MS;
  if (zone.offset(candidate) === start.offset) return { ms: candidate, offset: start.offset };
  return slowNext(start, unit, zone);
}

/** The start of the local bucket containing `ms`, by the same arithmetic-then-luxon rule. */
function firstEdge(ms: number, unit: CalendarUnit, zone: Zone): Edge {
  const offset = zone.offset(ms);
  const candidate = floorCalendar(unit, ms + offset * MINUTE_MS) - offset * MINUTE_MS;
  if (zone.offset(candidate) === offset) return { ms: candidate, offset };
  const edge = edgeOf(startOfUnit(DateTime.fromMillis(ms, { zone }), unit));
  if (edge.ms > ms) throw new Error(`local ${unit} start after ${new Date(ms).toISOString()}`);
  return edge;
}

function tooManyBuckets(unit: CalendarUnit): InvalidParameterError {
  const coarser = unit === "year" ? "" : "a coarser granularity or ";
  return new InvalidParameterError(
    "granularity",
    `the range needs more than ${MAX_BUCKETS} ${GRANULARITY_OF[unit]} buckets; use ${coarser}a shorter range`,
  );
}

/**
 * Cuts `range` into buckets of `unit` in `zone`'s calendar: hours, days, weeks (ISO: Monday
 * 00:00 local; or from Sunday 00:00 local), months, quarters (1 January, April, July, October) or
 * years. The first and last bucket may be partial. Buckets are generated one by one and counting
 * stops past MAX_BUCKETS, so a huge range fails fast instead of allocating.
 */
export function cutBuckets(range: TimeRange, unit: CalendarUnit, zone: Zone): OutputBucket[] {
  const buckets: OutputBucket[] = [];
  if (range.endMs <= range.startMs) return buckets;
  let start = firstEdge(range.startMs, unit, zone);
  while (start.ms < range.endMs) {
    if (buckets.length === MAX_BUCKETS) throw tooManyBuckets(unit);
    const next = nextEdge(start, unit, zone);
    buckets.push({
      label: formatAtOffset(start.ms, start.offset, zone),
      startMs: Math.max(start.ms, range.startMs),
      endMs: Math.min(next.ms, range.endMs),
    });
    start = next;
  }
  return buckets;
}
