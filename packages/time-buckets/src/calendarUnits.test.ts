import { describe, expect, it } from "vitest";
import { CALENDAR_UNITS, floorCalendar, nextCalendar } from "./calendarUnits";

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe("floorCalendar", () => {
  it("starts quarters on the first of January, April, July and October", () => {
    expect(iso(floorCalendar("quarter", at("2026-03-31T23:59:59.999Z")))).toBe("2026-01-01T00:00:00.000Z");
    expect(iso(floorCalendar("quarter", at("2026-04-01T00:00:00Z")))).toBe("2026-04-01T00:00:00.000Z");
    expect(iso(floorCalendar("quarter", at("2026-09-15T12:00:00Z")))).toBe("2026-07-01T00:00:00.000Z");
    expect(iso(floorCalendar("quarter", at("2026-12-31T23:59:59Z")))).toBe("2026-10-01T00:00:00.000Z");
  });

  it("starts years on the first of January, also for years 0-99 (which Date.UTC reads as 19xx)", () => {
    expect(iso(floorCalendar("year", at("2028-02-29T12:00:00Z")))).toBe("2028-01-01T00:00:00.000Z");
    expect(iso(floorCalendar("year", at("0050-07-01T00:00:00Z")))).toBe("0050-01-01T00:00:00.000Z");
    expect(iso(nextCalendar("year", at("0099-01-01T00:00:00Z")))).toBe("0100-01-01T00:00:00.000Z");
  });

  it("starts Sunday weeks on the Sunday on or before, ISO weeks on the Monday", () => {
    // 2026-11-01 is a Sunday.
    expect(iso(floorCalendar("sundayWeek", at("2026-11-01T00:00:00Z")))).toBe("2026-11-01T00:00:00.000Z");
    expect(iso(floorCalendar("sundayWeek", at("2026-11-07T23:59:59Z")))).toBe("2026-11-01T00:00:00.000Z");
    expect(iso(floorCalendar("sundayWeek", at("2026-10-31T23:59:59Z")))).toBe("2026-10-25T00:00:00.000Z");
    expect(iso(floorCalendar("week", at("2026-11-01T12:00:00Z")))).toBe("2026-10-26T00:00:00.000Z");
    // Before the epoch too (1969-12-28 was a Sunday).
    expect(iso(floorCalendar("sundayWeek", at("1969-12-31T00:00:00Z")))).toBe("1969-12-28T00:00:00.000Z");
  });
});

describe("nextCalendar", () => {
  it("steps quarters across the year's end and weeks by seven days", () => {
    expect(iso(nextCalendar("quarter", at("2026-10-01T00:00:00Z")))).toBe("2027-01-01T00:00:00.000Z");
    expect(iso(nextCalendar("sundayWeek", at("2026-12-27T00:00:00Z")))).toBe("2027-01-03T00:00:00.000Z");
  });

  it("tiles time: every unit's next start is the floor of the instant just past it", () => {
    for (const unit of CALENDAR_UNITS) {
      let start = floorCalendar(unit, at("1999-11-13T05:06:07Z"));
      for (let i = 0; i < 30; i++) {
        const next = nextCalendar(unit, start);
        expect(next).toBeGreaterThan(start);
        expect(floorCalendar(unit, next - 1)).toBe(start);
        expect(floorCalendar(unit, next)).toBe(next);
        start = next;
      }
    }
  });
});
