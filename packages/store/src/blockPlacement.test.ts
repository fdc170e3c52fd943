import { DAY_MS, HOUR_MS, MINUTE_MS } from "@vu/time-buckets";
import { describe, expect, it } from "vitest";
import { containerOf, DENSITY, denseTiers, densityArguments, isDense, STORED_TIERS } from "./blockPlacement";

const at = (iso: string) => Date.parse(iso);

describe("containerOf", () => {
  it("puts minutes in their hour, hours in their ISO week, days in their month, weeks and months in their year", () => {
    expect(containerOf("minute", at("2026-11-20T10:59:00Z"))).toMatchObject({
      startMs: at("2026-11-20T10:00:00Z"),
      endMs: at("2026-11-20T11:00:00Z"),
      index: 59,
      prefix: "59:",
    });
    // Friday 10:00 of the week that starts on Monday 2026-11-16: 4 days and 10 hours in.
    expect(containerOf("hour", at("2026-11-20T10:00:00Z"))).toMatchObject({
      startMs: at("2026-11-16T00:00:00Z"),
      endMs: at("2026-11-23T00:00:00Z"),
      index: 4 * 24 + 10,
    });
    expect(containerOf("day", at("2026-02-28T00:00:00Z"))).toMatchObject({
      startMs: at("2026-02-01T00:00:00Z"),
      endMs: at("2026-03-01T00:00:00Z"),
      index: 27,
    });
    expect(containerOf("month", at("2026-12-01T00:00:00Z"))).toMatchObject({
      startMs: at("2026-01-01T00:00:00Z"),
      endMs: at("2027-01-01T00:00:00Z"),
      index: 11,
    });
  });

  it("gives every week starting in a year its own index there, the year's first Monday first", () => {
    const indexes = [];
    for (let monday = at("2024-01-01T00:00:00Z"); monday < at("2025-01-01T00:00:00Z"); monday += 7 * DAY_MS) {
      const place = containerOf("week", monday);
      expect(place.startMs).toBe(at("2024-01-01T00:00:00Z"));
      indexes.push(place.index);
    }
    expect(indexes).toEqual(Array.from({ length: 53 }, (_, i) => i));
    // A week that starts in December belongs to that year, not to the one it ends in.
    expect(containerOf("week", at("2025-12-29T00:00:00Z")).startMs).toBe(at("2025-01-01T00:00:00Z"));
  });
});

describe("the density rule", () => {
  it("turns a tier dense once the organization averages enough recordings per block over its span", () => {
    const n = 100_000;
    // 100,000 recordings over 400 days: 250 a day, 10 an hour.
    const span = 400 * DAY_MS;
    expect(isDense("day", n, span)).toBe(false);
    expect(isDense("week", n, span)).toBe(true);
    expect(isDense("month", n, span)).toBe(true);
    expect(isDense("hour", n, span)).toBe(false);
    // The same within one hour: even minutes hold ~1,700 each.
    expect(STORED_TIERS.every((tier) => isDense(tier, n, HOUR_MS))).toBe(true);
  });

  it("keeps an organization sparse below its minimum, however bursty", () => {
    expect(isDense("minute", DENSITY.minRecordings - 1, 0)).toBe(false);
    expect(isDense("minute", DENSITY.minRecordings, MINUTE_MS)).toBe(true);
  });

  it("passes the same rule to the apply script, and reads the dense tiers back from their codes", () => {
    expect(densityArguments()).toBe(
      `${DENSITY.minRecordings} ${DENSITY.recordingsPerBlock} m 60000 h 3600000 d 86400000 w 604800000 M 2592000000`,
    );
    expect([...denseTiers("hdwM")]).toEqual(["hour", "day", "week", "month"]);
    expect(denseTiers(null).size).toBe(0);
  });
});
