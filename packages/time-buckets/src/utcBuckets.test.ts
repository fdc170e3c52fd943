import { describe, expect, it } from "vitest";
import { bucketsOf, ceilUtc, floorUtc, isAlignedUtc, nextUtc } from "./utcBuckets";

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();

describe("floorUtc", () => {
  it("aligns minute, hour and day in UTC", () => {
    const t = at("2026-03-29T01:59:59.999Z");
    expect(iso(floorUtc("minute", t))).toBe("2026-03-29T01:59:00.000Z");
    expect(iso(floorUtc("hour", t))).toBe("2026-03-29T01:00:00.000Z");
    expect(iso(floorUtc("day", t))).toBe("2026-03-29T00:00:00.000Z");
  });

  it("starts ISO weeks on Monday, across year ends", () => {
    // 2026-01-01 is a Thursday: its ISO week (2026-W01) starts Monday 2025-12-29.
    expect(iso(floorUtc("week", at("2026-01-01T12:00:00Z")))).toBe("2025-12-29T00:00:00.000Z");
    // 2027-01-03 is a Sunday, still in 2026-W53 which started Monday 2026-12-28.
    expect(iso(floorUtc("week", at("2027-01-03T23:59:59Z")))).toBe("2026-12-28T00:00:00.000Z");
    expect(iso(floorUtc("week", at("2027-01-04T00:00:00Z")))).toBe("2027-01-04T00:00:00.000Z");
    // Before 1970 too.
    expect(iso(floorUtc("week", at("1969-12-31T00:00:00Z")))).toBe("1969-12-29T00:00:00.000Z");
  });

  it("aligns months in UTC, including leap February", () => {
    expect(iso(floorUtc("month", at("2028-02-29T23:59:00Z")))).toBe("2028-02-01T00:00:00.000Z");
    expect(iso(nextUtc("month", at("2028-02-01T00:00:00Z")))).toBe("2028-03-01T00:00:00.000Z");
    expect(iso(nextUtc("month", at("2026-12-01T00:00:00Z")))).toBe("2027-01-01T00:00:00.000Z");
    // Date.UTC would read year 50 as 1950.
    expect(iso(floorUtc("month", at("0050-03-15T00:00:00Z")))).toBe("0050-03-01T00:00:00.000Z");
    expect(iso(nextUtc("month", at("0050-12-01T00:00:00Z")))).toBe("0051-01-01T00:00:00.000Z");
  });
});

describe("ceilUtc / isAlignedUtc", () => {
  it("keeps aligned instants and moves others to the next start", () => {
    expect(iso(ceilUtc("hour", at("2026-11-02T13:00:00Z")))).toBe("2026-11-02T13:00:00.000Z");
    expect(iso(ceilUtc("hour", at("2026-11-02T13:00:00.001Z")))).toBe("2026-11-02T14:00:00.000Z");
    expect(isAlignedUtc("week", at("2026-11-02T00:00:00Z"))).toBe(true);
    expect(isAlignedUtc("week", at("2026-11-03T00:00:00Z"))).toBe(false);
  });
});

describe("bucketsOf", () => {
  it("places one instant in every tier", () => {
    const got = bucketsOf(at("2026-11-01T23:30:10Z")).map((b) => `${b.tier}=${iso(b.startMs)}`);
    expect(got).toEqual([
      "minute=2026-11-01T23:30:00.000Z",
      "quarter=2026-11-01T23:30:00.000Z",
      "hour=2026-11-01T23:00:00.000Z",
      "day=2026-11-01T00:00:00.000Z",
      "week=2026-10-26T00:00:00.000Z",
      "month=2026-11-01T00:00:00.000Z",
    ]);
  });
});
