import { DateTime } from "luxon";
import type { Random } from "../support/random";

export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;
export const DAY_MS = 86_400_000;
/** 14 months: crosses both DST changes of Europe and the US twice, month ends and a year end. */
export const HISTORY_MS = 425 * DAY_MS;

/** Zones whose calendars the workload and the queries care about. */
export const ZONES = ["Europe/Berlin", "America/New_York", "Asia/Kolkata"] as const;

/**
 * Instants where bucket arithmetic goes wrong first: DST changes of Europe and the US, UTC and local
 * month starts (hence year starts), and local midnights around DST changes, within the window.
 */
export function hotInstants(fromMs: number, toMs: number): number[] {
  const hot = new Set<number>();
  for (const zone of ZONES) {
    let day = DateTime.fromMillis(fromMs, { zone }).startOf("day");
    while (day.toMillis() < toMs) {
      const next = day.plus({ days: 1 });
      // An offset change within the local day: record where it happens and both local midnights.
      if (next.offset !== day.offset) {
        let t = day.toMillis();
        while (DateTime.fromMillis(t + HOUR_MS, { zone }).offset === day.offset) t += HOUR_MS;
        hot.add(t + HOUR_MS);
        hot.add(day.toMillis());
        hot.add(next.toMillis());
      }
      if (day.day === 1) hot.add(day.toMillis());
      day = next;
    }
  }
  let month = DateTime.fromMillis(fromMs, { zone: "utc" }).startOf("month");
  while (month.toMillis() < toMs) {
    hot.add(month.toMillis());
    month = month.plus({ months: 1 });
  }
  return [...hot].filter((t) => t >= fromMs && t < toMs).sort((a, b) => a - b);
}

/** A time drawer over [anchor − 14 months, anchor], biased towards the hot instants. */
export function createTimeDrawer(anchorMs: number, random: Random) {
  const fromMs = anchorMs - HISTORY_MS;
  const hot = hotInstants(fromMs, anchorMs);
  const clamp = (t: number) => Math.min(anchorMs - 1, Math.max(fromMs, t));
  return {
    fromMs,
    hot,
    /** A past instant with millisecond precision (sometimes exactly on a boundary). */
    past(): number {
      const roll = random.float();
      if (roll < 0.5) return random.int(fromMs, anchorMs - 1);
      // The minute retention (35 days) is where the finest blocks live: give it more data.
      if (roll < 0.65) return random.int(anchorMs - 40 * DAY_MS, anchorMs - 1);
      const at = random.pick(hot);
      if (roll < 0.72) return clamp(at + random.pick([0, -1, 1, -MINUTE_MS, MINUTE_MS - 1]));
      return clamp(at + random.int(-3 * HOUR_MS, 3 * HOUR_MS));
    },
    /** Ahead of the anchor but within the 24 hours the worker accepts (with a wide margin). */
    nearFuture(): number {
      return anchorMs + random.int(1, 20 * HOUR_MS);
    },
    /** More than 24 hours ahead (with a wide margin): dead-lettered, never counted. */
    farFuture(): number {
      return anchorMs + random.int(30 * HOUR_MS, 60 * DAY_MS);
    },
  };
}

/** `recorded_at` as different producers write it: UTC or an offset, with or without fractions. */
export function formatRecordedAt(ms: number, random: Random): string {
  const roll = random.float();
  const zone = random.pick([...ZONES, "UTC+5:45", "UTC-3"]);
  if (roll < 0.4) return new Date(ms).toISOString();
  if (roll < 0.5 && ms % 1000 === 0) return new Date(ms).toISOString().replace(".000Z", "Z");
  const local = DateTime.fromMillis(ms, { zone });
  if (roll < 0.6) return `${new Date(ms).toISOString().slice(0, -1)}000Z`;
  return local.toISO({ suppressMilliseconds: ms % 1000 === 0 }) ?? new Date(ms).toISOString();
}
