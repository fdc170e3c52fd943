import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import { apiInstant, customRange, isKnownZone, presetRange } from "./presets";
import { RANGE_PRESETS } from "./vocabulary";

const at = (iso: string) => DateTime.fromISO(iso, { setZone: true }).toMillis();
const range = (preset: (typeof RANGE_PRESETS)[number], nowIso: string, zone: string) => {
  const { start, end } = presetRange(preset, at(nowIso), zone);
  return { start: apiInstant(start), end: apiInstant(end), hours: end.diff(start, "hours").hours };
};

describe("range presets in a zone", () => {
  it("counts local days across the spring DST change (Berlin, 29 March 2026: a 23-hour day)", () => {
    expect(range("last_7_days", "2026-03-31T12:00:00+02:00", "Europe/Berlin")).toEqual({
      start: "2026-03-25T00:00:00+01:00",
      end: "2026-04-01T00:00:00+02:00",
      hours: 7 * 24 - 1,
    });
  });

  it("counts local days across the autumn DST change (New York, 1 November 2026: a 25-hour day)", () => {
    expect(range("last_30_days", "2026-11-10T08:00:00-05:00", "America/New_York")).toEqual({
      start: "2026-10-12T00:00:00-04:00",
      end: "2026-11-11T00:00:00-05:00",
      hours: 30 * 24 + 1,
    });
  });

  it("keeps last 24 hours a duration, even across a DST change, ending at the next whole minute", () => {
    expect(range("last_24_hours", "2026-03-29T12:00:30+02:00", "Europe/Berlin")).toEqual({
      start: "2026-03-28T11:01:00+01:00",
      end: "2026-03-29T12:01:00+02:00",
      hours: 24,
    });
    expect(range("last_24_hours", "2026-03-29T12:00:00+02:00", "Europe/Berlin").end).toBe(
      "2026-03-29T12:00:00+02:00",
    );
  });

  it("takes calendar months and quarters of the zone, not of UTC", () => {
    // 23:30 UTC on 31 March is already 1 April in Berlin: "this month" is April there.
    const now = "2026-03-31T23:30:00Z";
    expect(range("this_month", now, "Europe/Berlin")).toMatchObject({
      start: "2026-04-01T00:00:00+02:00",
      end: "2026-05-01T00:00:00+02:00",
    });
    expect(range("this_month", now, "UTC")).toMatchObject({
      start: "2026-03-01T00:00:00Z",
      end: "2026-04-01T00:00:00Z",
    });
    expect(range("last_month", now, "Europe/Berlin")).toMatchObject({
      start: "2026-03-01T00:00:00+01:00",
      end: "2026-04-01T00:00:00+02:00",
      hours: 31 * 24 - 1,
    });
    expect(range("last_quarter", now, "Europe/Berlin")).toMatchObject({
      start: "2026-01-01T00:00:00+01:00",
      end: "2026-04-01T00:00:00+02:00",
    });
    expect(range("last_quarter", now, "UTC")).toMatchObject({
      start: "2025-10-01T00:00:00Z",
      end: "2026-01-01T00:00:00Z",
    });
  });

  it("works in zones a quarter hour off UTC", () => {
    expect(range("last_7_days", "2026-06-15T00:00:00Z", "Asia/Kathmandu")).toEqual({
      start: "2026-06-09T00:00:00+05:45",
      end: "2026-06-16T00:00:00+05:45",
      hours: 168,
    });
  });

  it("gives every preset a non-empty range that contains now (or ends before it, for past periods)", () => {
    const now = at("2026-07-04T15:45:00-07:00");
    for (const preset of RANGE_PRESETS) {
      const { start, end } = presetRange(preset, now, "America/Los_Angeles");
      expect(start < end, preset).toBe(true);
      expect(start.toMillis() <= now, preset).toBe(true);
    }
  });
});

describe("custom ranges and zones", () => {
  it("runs from the first local midnight to the midnight after the last day", () => {
    const r = customRange("2026-03-29", "2026-03-29", "Europe/Berlin");
    expect(r && [apiInstant(r.start), apiInstant(r.end)]).toEqual([
      "2026-03-29T00:00:00+01:00",
      "2026-03-30T00:00:00+02:00",
    ]);
    expect(customRange("2026-13-01", "2026-03-29", "UTC")).toBeNull();
  });

  it("knows IANA names and UTC, and nothing else", () => {
    expect(isKnownZone("Asia/Kolkata")).toBe(true);
    expect(isKnownZone("UTC")).toBe(true);
    expect(isKnownZone("Mars/Olympus")).toBe(false);
  });
});
