import { describe, expect, it } from "vitest";
import { HOUR_MS, hourlyOffsets } from "./timeZoneOffsets";

const firstHour = Date.UTC(2025, 0, 1) / HOUR_MS;
const hourCount = (Date.UTC(2026, 0, 1) - Date.UTC(2025, 0, 1)) / HOUR_MS;

/** Each change as [first UTC instant of the new offset, new offset]. */
function changes(timeZone: string): [string, number][] {
  const offsets = hourlyOffsets(timeZone, firstHour, hourCount);
  const found: [string, number][] = [];
  for (let hour = 1; hour < hourCount; hour++) {
    const offset = offsets[hour] ?? Number.NaN;
    if (offset !== offsets[hour - 1]) {
      found.push([new Date((firstHour + hour) * HOUR_MS).toISOString(), offset]);
    }
  }
  return [[new Date(firstHour * HOUR_MS).toISOString(), offsets[0] ?? Number.NaN], ...found];
}

describe("hourlyOffsets", () => {
  it("finds the European DST changes to the hour", () => {
    expect(changes("Europe/Berlin")).toEqual([
      ["2025-01-01T00:00:00.000Z", 60],
      ["2025-03-30T01:00:00.000Z", 120],
      ["2025-10-26T01:00:00.000Z", 60],
    ]);
  });

  it("finds the US DST changes to the hour", () => {
    expect(changes("America/New_York")).toEqual([
      ["2025-01-01T00:00:00.000Z", -300],
      ["2025-03-09T07:00:00.000Z", -240],
      ["2025-11-02T06:00:00.000Z", -300],
    ]);
  });

  it("keeps a half-hour zone without DST constant", () => {
    expect(changes("Asia/Kolkata")).toEqual([["2025-01-01T00:00:00.000Z", 330]]);
  });

  it("handles a range shorter than a day that contains a change", () => {
    const start = Date.UTC(2025, 2, 30) / HOUR_MS;
    expect([...hourlyOffsets("Europe/Berlin", start, 3)]).toEqual([60, 120, 120]);
  });
});
