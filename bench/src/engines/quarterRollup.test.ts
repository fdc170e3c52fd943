import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { QUARTER_MS, quarterRange, zoneOnQuarterHours } from "./quarterRollup";
import type { RawQuery } from "./rawQuery";

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const at = (iso: string) => Date.parse(iso);

/** The start of the local hour holding `t`, keeping the offset in force at `t` (a repeated autumn hour is two hours). */
function localHourStart(t: number, zone: string): number {
  const offsetMs = DateTime.fromMillis(t, { zone }).offset * 60_000;
  return t - ((((t + offsetMs) % HOUR_MS) + HOUR_MS) % HOUR_MS);
}

const localStart = (t: number, zone: string, unit: "day" | "month") =>
  DateTime.fromMillis(t, { zone }).startOf(unit).toMillis();

/** Instants spread over the quarter starting at `q`: a middle one and its last millisecond. */
const insideQuarter = (q: number) => [q + QUARTER_MS / 2, q + QUARTER_MS - 1];

/** The quarters of the two days around `day` whose instants fall in another local bucket than the quarter's start. */
function straddlingQuarters(zone: string, day: string): number[] {
  const from = at(day) - DAY_MS / 2;
  const found: number[] = [];
  for (let q = from; q < from + 2 * DAY_MS; q += QUARTER_MS) {
    const bucketsOf = (t: number) => [
      localHourStart(t, zone),
      localStart(t, zone, "day"),
      localStart(t, zone, "month"),
    ];
    const expected = bucketsOf(q).join();
    if (insideQuarter(q).some((t) => bucketsOf(t).join() !== expected)) found.push(q);
  }
  return found;
}

/** Days with a change of offset (or none) in zones whose offsets are whole quarter hours. */
const QUARTER_ZONES: Array<[zone: string, day: string]> = [
  ["Europe/Berlin", "2026-03-29T00:00:00Z"],
  ["Europe/Berlin", "2026-10-25T00:00:00Z"],
  ["Asia/Kolkata", "2026-01-15T00:00:00Z"],
  ["Asia/Kathmandu", "2026-02-28T00:00:00Z"],
  ["Australia/Lord_Howe", "2026-04-05T00:00:00Z"],
  ["Pacific/Chatham", "2026-04-05T00:00:00Z"],
];

/** Liberia kept Monrovia Mean Time, −00:44:30, until May 1972. */
const MONROVIA_1971: [zone: string, day: string] = ["Africa/Monrovia", "1971-06-01T00:00:00Z"];

describe("zoneOnQuarterHours", () => {
  it("accepts zones whose offsets are whole quarter hours, across their changes of offset", () => {
    for (const [zone, day] of QUARTER_ZONES) {
      expect(zoneOnQuarterHours(zone, at(day) - 30 * DAY_MS, at(day) + 30 * DAY_MS), zone).toBe(true);
    }
  });

  it("refuses a zone while its offset is not whole quarter hours, and accepts it after", () => {
    const [zone, day] = MONROVIA_1971;
    expect(zoneOnQuarterHours(zone, at(day), at(day) + DAY_MS)).toBe(false);
    expect(zoneOnQuarterHours(zone, at("2026-01-01T00:00:00Z"), at("2026-02-01T00:00:00Z"))).toBe(true);
  });

  it("throws on a zone it does not know", () => {
    expect(() => zoneOnQuarterHours("Mars/Olympus_Mons", 0, HOUR_MS)).toThrow(/unknown time zone/);
  });
});

describe("bucketing a quarter hour by its start", () => {
  it("puts every instant of a quarter in the quarter start's local hour, day and month, where the zone is accepted", () => {
    for (const [zone, day] of QUARTER_ZONES)
      expect(straddlingQuarters(zone, day), `${zone} ${day}`).toEqual([]);
  });

  it("would not, where the zone is refused: local hours there start inside quarters", () => {
    const [zone, day] = MONROVIA_1971;
    expect(straddlingQuarters(zone, day).length).toBeGreaterThan(0);
  });
});

describe("quarterRange", () => {
  const week: RawQuery = {
    kind: "stats",
    org: "o",
    fromMs: at("2026-03-25T13:00:00Z"),
    toMs: at("2026-04-01T13:00:00Z"),
    zone: "Asia/Kolkata",
    unit: "hour",
    page: 1,
    pageSize: 1000,
  };

  it("passes a range on quarter hours in a quarter-hour zone through", () => {
    expect(quarterRange(week)).toEqual({ fromMs: week.fromMs, toMs: week.toMs });
    expect(quarterRange({ ...week, zone: "Asia/Kathmandu", fromMs: week.fromMs + 45 * 60_000 })).toEqual({
      fromMs: week.fromMs + 45 * 60_000,
      toMs: week.toMs,
    });
  });

  it("refuses bounds a quarter-hour row would straddle", () => {
    expect(() => quarterRange({ ...week, fromMs: week.fromMs + 60_000 })).toThrow(/not on UTC quarter hours/);
    expect(() => quarterRange({ ...week, toMs: week.toMs - 1 })).toThrow(/not on UTC quarter hours/);
  });

  it("refuses buckets in a zone whose offset is not whole quarter hours, but not a summary's range there", () => {
    const monrovia = {
      ...week,
      zone: MONROVIA_1971[0],
      fromMs: at(MONROVIA_1971[1]),
      toMs: at(MONROVIA_1971[1]) + DAY_MS,
    };
    expect(() => quarterRange(monrovia)).toThrow(/Africa\/Monrovia/);
    expect(quarterRange({ ...monrovia, kind: "summary" })).toEqual({
      fromMs: monrovia.fromMs,
      toMs: monrovia.toMs,
    });
  });
});
