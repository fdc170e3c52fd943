import { describe, expect, it } from "vitest";
import { HOUR_MS } from "./timeZoneOffsets";
import { rangeHours, zoneActivity } from "./zoneHours";

const fromMs = Date.UTC(2025, 0, 1, 0, 15);
const toMs = Date.UTC(2025, 0, 3, 12, 45);

describe("rangeHours and zoneActivity", () => {
  it("cover every hour touching the range, the partial first and last hours by their part inside", () => {
    const { firstHour, hourCount, scale } = rangeHours(fromMs, toMs);
    expect(firstHour * HOUR_MS).toBe(Date.UTC(2025, 0, 1));
    expect(hourCount).toBe(61);
    expect(scale[0]).toBeCloseTo(0.75 * 0.8, 2);
    expect(scale[30]).toBeCloseTo(1, 1);
    expect(scale[60]).toBeCloseTo(0.75 * 1.2, 2);
  });

  it("read each zone's hours by its local wall clock, with :30 offsets", () => {
    // Thursday 2 January 2025, 09:00–10:00 UTC, read at its middle: 10:30 in Berlin (busy), 04:30 in
    // New York (night), 15:00 in Kolkata (not 14:30, which its start would give: 0.95).
    const hours = rangeHours(fromMs, toMs);
    const at = (zone: string) => zoneActivity(zone, hours)[33];
    expect(at("Europe/Berlin")).toBe(1);
    expect(at("America/New_York")).toBe(0.01);
    expect(at("Asia/Kolkata")).toBe(0.9);
  });

  it("are shared: the same range and zone give the very same tables", () => {
    const hours = rangeHours(fromMs, toMs);
    expect(rangeHours(fromMs, toMs).scale).toBe(hours.scale);
    expect(zoneActivity("Asia/Kolkata", rangeHours(fromMs, toMs))).toBe(zoneActivity("Asia/Kolkata", hours));
    expect(zoneActivity("Europe/Berlin", hours)).not.toBe(zoneActivity("Asia/Kolkata", hours));
  });
});
