import { DAY_MS } from "./dates";

const HOUR_MS = 3_600_000;
const QUARTER_MS = 900_000;
const MINUTE_MS = 60_000;

/** The store's default retention: minute blocks 35 days, quarter-hour and hour blocks 400 days, coarser forever. */
export const MINUTE_RETENTION_MS = 35 * DAY_MS;
export const QUARTER_RETENTION_MS = 400 * DAY_MS;
export const HOUR_RETENTION_MS = 400 * DAY_MS;

/**
 * The finest UTC grid the store still holds at instant `t` (the planner's retention grid): minutes while
 * the minute blocks of t's UTC hour exist, else quarter hours while the quarter-hour blocks of t's
 * UTC hour and the hour blocks of t's UTC day exist, else hours while the hour blocks of t's UTC
 * day exist, else days (day blocks are kept forever by default).
 */
export function keptGridStep(t: number, nowMs: number): number {
  const hourStart = Math.floor(t / HOUR_MS) * HOUR_MS;
  if (hourStart >= nowMs - MINUTE_RETENTION_MS) return MINUTE_MS;
  const dayStart = Math.floor(t / DAY_MS) * DAY_MS;
  // Quarter hours or hours only where the hour blocks of t's UTC day are all there (the cover reaches
  // back to the day's start with them).
  if (dayStart < nowMs - HOUR_RETENTION_MS) return DAY_MS;
  return hourStart >= nowMs - QUARTER_RETENTION_MS ? QUARTER_MS : HOUR_MS;
}

/**
 * Whether the store can answer with an edge at `t` without moving it. The oracle answers by
 * scanning raw events, which is exact at any instant; the service is only exact on the grid it still
 * holds. Queries are generated so that every edge is on it (approach (a) of the brief); an edge
 * that is not makes the query not comparable rather than a failure.
 */
export function isOnKeptGrid(t: number, nowMs: number): boolean {
  return t % keptGridStep(t, nowMs) === 0;
}
