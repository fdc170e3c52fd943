import { FixedOffsetZone, IANAZone } from "luxon";
import { describe, expect, it } from "vitest";
import { nextDayWallClockMs, wallClockMs, wallClockToInstant } from "./wallClock";

const iso = (ms: number) => new Date(ms).toISOString();
const instant = (zone: string, y: number, mo: number, d: number, h = 0, mi = 0) =>
  iso(
    wallClockToInstant(
      wallClockMs({ year: y, month: mo, day: d }, { hour: h, minute: mi, second: 0, millisecond: 0 }),
      IANAZone.create(zone),
    ),
  );

describe("wallClockToInstant", () => {
  it("reads ordinary times at the offset in force", () => {
    expect(instant("Europe/Berlin", 2026, 1, 15, 9)).toBe("2026-01-15T08:00:00.000Z");
    expect(instant("Europe/Berlin", 2026, 7, 15, 9)).toBe("2026-07-15T07:00:00.000Z");
    expect(instant("Asia/Kathmandu", 2026, 7, 15)).toBe("2026-07-14T18:15:00.000Z");
    expect(
      iso(wallClockToInstant(wallClockMs({ year: 2026, month: 7, day: 15 }), FixedOffsetZone.instance(-480))),
    ).toBe("2026-07-15T08:00:00.000Z");
  });

  it("takes the first of two occurrences, in either season of the caller", () => {
    expect(instant("Europe/Berlin", 2026, 10, 25, 2, 30)).toBe("2026-10-25T00:30:00.000Z");
    expect(instant("America/New_York", 2026, 11, 1, 1, 30)).toBe("2026-11-01T05:30:00.000Z");
  });

  it("moves a skipped time forward by the gap", () => {
    expect(instant("Europe/Berlin", 2026, 3, 29, 2, 30)).toBe("2026-03-29T01:30:00.000Z");
    // Santiago starts DST at midnight: 2026-09-06 begins at 01:00 local (-03:00).
    expect(instant("America/Santiago", 2026, 9, 6)).toBe("2026-09-06T04:00:00.000Z");
    // Samoa skipped 2011-12-30 entirely: that day "starts" when the 31st does.
    expect(instant("Pacific/Apia", 2011, 12, 30)).toBe(instant("Pacific/Apia", 2011, 12, 31));
  });

  it("handles years before 100, which Date.UTC would map to the 1900s", () => {
    expect(iso(wallClockMs({ year: 50, month: 3, day: 1 }))).toBe("0050-03-01T00:00:00.000Z");
    expect(iso(nextDayWallClockMs({ year: 9999, month: 12, day: 31 }))).toBe("+010000-01-01T00:00:00.000Z");
  });
});
