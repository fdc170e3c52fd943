import { DAY_MS, DEFAULT_RETENTION } from "@vu/time-buckets";
import { describe, expect, it } from "vitest";
import { InvalidParameterError } from "./invalidParameterError";
import { type RangeParams, resolveRange } from "./rangeResolution";

const now = Date.parse("2026-11-22T12:00:30.500Z");
const context = { now, retention: DEFAULT_RETENTION };

/** The resolved range as UTC ISO strings, for readable expectations. */
function utc(params: RangeParams): [string, string] {
  const r = resolveRange(params, context);
  return [new Date(r.startMs).toISOString(), new Date(r.endMs).toISOString()];
}

function problemOf(params: RangeParams): InvalidParameterError {
  try {
    resolveRange(params, context);
  } catch (error) {
    if (error instanceof InvalidParameterError) return error;
    throw error;
  }
  throw new Error("expected an InvalidParameterError");
}

describe("resolveRange: formats", () => {
  it("reads date-only values as whole days, the end day included", () => {
    expect(utc({ startDate: "2026-11-01", endDate: "2026-11-30" })).toEqual([
      "2026-11-01T00:00:00.000Z",
      "2026-12-01T00:00:00.000Z",
    ]);
    expect(utc({ startDate: "2026-11-05", endDate: "2026-11-05" })).toEqual([
      "2026-11-05T00:00:00.000Z",
      "2026-11-06T00:00:00.000Z",
    ]);
  });

  it("reads times without a zone in UTC by default", () => {
    expect(utc({ startDate: "2026-11-01T10:17:00", endDate: "2026-11-01T14:42:00" })).toEqual([
      "2026-11-01T10:17:00.000Z",
      "2026-11-01T14:42:00.000Z",
    ]);
  });

  it("widens fractional seconds to whole minutes, start down and end up", () => {
    expect(utc({ startDate: "2026-11-01T10:17:59.9", endDate: "2026-11-01T14:42:00.000001" })).toEqual([
      "2026-11-01T10:17:00.000Z",
      "2026-11-01T14:42:00.000Z",
    ]);
    expect(utc({ startDate: "2026-11-01T10:17:00.5", endDate: "2026-11-01T14:42:00.123456" })).toEqual([
      "2026-11-01T10:17:00.000Z",
      "2026-11-01T14:43:00.000Z",
    ]);
  });

  it("reads each value with its own offset", () => {
    expect(utc({ startDate: "2026-11-01T10:00:00+05:30", endDate: "2026-11-01T10:00:00Z" })).toEqual([
      "2026-11-01T04:30:00.000Z",
      "2026-11-01T10:00:00.000Z",
    ]);
    expect(utc({ startDate: "2026-11-01T10:00:00+0530", endDate: "2026-11-01T10:00:00-08:00" })).toEqual([
      "2026-11-01T04:30:00.000Z",
      "2026-11-01T18:00:00.000Z",
    ]);
    expect(utc({ startDate: "2026-11-01-08:00", endDate: "2026-11-01Z" })).toEqual([
      "2026-11-01T08:00:00.000Z",
      "2026-11-02T00:00:00.000Z",
    ]);
  });
});

describe("resolveRange: zone", () => {
  it("defaults the zone to start_date's offset and reads zone-less values in it", () => {
    const r = resolveRange({ startDate: "2026-11-10T00:00:00+05:30", endDate: "2026-11-12" }, context);
    expect(r.zoneName).toBe("+05:30");
    expect(new Date(r.endMs).toISOString()).toBe("2026-11-12T18:30:00.000Z");
  });

  it("uses UTC when start_date has no offset, even if end_date has one", () => {
    const r = resolveRange({ startDate: "2026-11-10", endDate: "2026-11-12T00:00:00+05:30" }, context);
    expect(r.zoneName).toBe("UTC");
    expect(new Date(r.startMs).toISOString()).toBe("2026-11-10T00:00:00.000Z");
  });

  it("reads zone-less values in the timezone parameter, values with an offset at their offset", () => {
    const r = resolveRange(
      { startDate: "2026-11-10T10:00:00", endDate: "2026-11-10T10:00:00Z", timezone: "Europe/Berlin" },
      context,
    );
    expect(r.zoneName).toBe("Europe/Berlin");
    expect([new Date(r.startMs).toISOString(), new Date(r.endMs).toISOString()]).toEqual([
      "2026-11-10T09:00:00.000Z",
      "2026-11-10T10:00:00.000Z",
    ]);
  });

  it("gives a local day 25 hours across the autumn change and 23 in spring", () => {
    expect(utc({ startDate: "2026-10-25", endDate: "2026-10-25", timezone: "Europe/Berlin" })).toEqual([
      "2026-10-24T22:00:00.000Z",
      "2026-10-25T23:00:00.000Z",
    ]);
    expect(utc({ startDate: "2026-03-08", endDate: "2026-03-08", timezone: "America/New_York" })).toEqual([
      "2026-03-08T05:00:00.000Z",
      "2026-03-09T04:00:00.000Z",
    ]);
  });

  it("reads a repeated local time as its first occurrence and a skipped one as after the jump", () => {
    const tz = "Europe/Berlin";
    expect(utc({ startDate: "2026-10-25T02:30:00", endDate: "2026-10-25T02:30:00", timezone: tz })).toEqual([
      "2026-10-25T00:30:00.000Z",
      "2026-10-25T00:30:00.000Z",
    ]);
    const spring = resolveRange(
      { startDate: "2026-03-29T02:30:00", endDate: "2026-03-29T02:30:00", timezone: tz },
      { now: Date.parse("2026-04-01T00:00:00Z"), retention: DEFAULT_RETENTION },
    );
    expect(new Date(spring.startMs).toISOString()).toBe("2026-03-29T01:30:00.000Z");
    expect(spring.endMs).toBe(spring.startMs);
  });

  it("rejects an unknown zone naming timezone", () => {
    expect(problemOf({ timezone: "Europe/Atlantis" }).parameter).toBe("timezone");
  });
});

describe("resolveRange: defaults and order", () => {
  it("defaults to the 7 × 24 hours before now, widened to whole minutes", () => {
    expect(utc({})).toEqual(["2026-11-15T12:00:00.000Z", "2026-11-22T12:01:00.000Z"]);
    expect(resolveRange({}, context).zoneName).toBe("UTC");
  });

  it("ends at now when only start_date is given, starts 7 days before end_date when only it is", () => {
    expect(utc({ startDate: "2026-11-20" })).toEqual([
      "2026-11-20T00:00:00.000Z",
      "2026-11-22T12:01:00.000Z",
    ]);
    expect(utc({ endDate: "2026-11-10T06:30:00Z" })).toEqual([
      "2026-11-03T06:30:00.000Z",
      "2026-11-10T06:30:00.000Z",
    ]);
  });

  it("allows an empty range and rejects start after end naming start_date", () => {
    expect(utc({ startDate: "2026-11-01T10:00:00Z", endDate: "2026-11-01T10:00:00Z" })).toEqual([
      "2026-11-01T10:00:00.000Z",
      "2026-11-01T10:00:00.000Z",
    ]);
    const problem = problemOf({ startDate: "2026-11-02", endDate: "2026-11-01T23:59:59Z" });
    expect(problem).toMatchObject({ parameter: "start_date", message: expect.stringContaining("after") });
    // A start in the future is after the default end (now).
    expect(problemOf({ startDate: "2026-12-01" }).parameter).toBe("start_date");
  });

  it("checks the order before widening: one millisecond apart is not an error", () => {
    expect(
      problemOf({ startDate: "2026-11-01T10:00:00.001Z", endDate: "2026-11-01T10:00:00Z" }).parameter,
    ).toBe("start_date");
    expect(utc({ startDate: "2026-11-01T10:00:00Z", endDate: "2026-11-01T10:00:00.001Z" })).toEqual([
      "2026-11-01T10:00:00.000Z",
      "2026-11-01T10:01:00.000Z",
    ]);
  });

  it.each([
    ["start_date", { startDate: "2026-13-01" }],
    ["start_date", { startDate: "2026-02-30" }],
    ["end_date", { endDate: "garbage" }],
    ["end_date", { startDate: "2026-11-01", endDate: "2026-11-31" }],
  ] as const)("rejects an invalid date naming %s", (parameter, params) => {
    const problem = problemOf(params);
    expect(problem.parameter).toBe(parameter);
  });
});

describe("resolveRange: retention", () => {
  it("leaves recent bounds on minutes, also in zones not aligned to UTC hours", () => {
    const r = utc({ startDate: "2026-11-10", endDate: "2026-11-12", timezone: "Asia/Kathmandu" });
    expect(r).toEqual(["2026-11-09T18:15:00.000Z", "2026-11-12T18:15:00.000Z"]);
  });

  it("keeps Kolkata bounds older than the minute retention exact on UTC quarter hours", () => {
    // 2026-10-01 is 52 days before now: minute blocks are gone, quarter-hour blocks kept.
    expect(utc({ startDate: "2026-10-01", endDate: "2026-10-02", timezone: "Asia/Kolkata" })).toEqual([
      "2026-09-30T18:30:00.000Z",
      "2026-10-02T18:30:00.000Z",
    ]);
    // A bound between quarter hours moves out to them.
    expect(utc({ startDate: "2026-10-01T10:17:00Z", endDate: "2026-10-01T11:02:00Z" })).toEqual([
      "2026-10-01T10:15:00.000Z",
      "2026-10-01T11:15:00.000Z",
    ]);
  });

  it("widens bounds older than the hour retention to UTC days", () => {
    expect(now - Date.parse("2025-06-01T00:00:00Z")).toBeGreaterThan(400 * DAY_MS);
    expect(utc({ startDate: "2025-06-01", endDate: "2025-06-02", timezone: "Europe/Berlin" })).toEqual([
      "2025-05-31T00:00:00.000Z",
      "2025-06-03T00:00:00.000Z",
    ]);
  });

  it("uses the finest grid still stored for each bound separately", () => {
    // Start older than 35 days (quarter-hour grid), end recent (minute grid).
    expect(utc({ startDate: "2026-10-01T10:17:00Z", endDate: "2026-11-20T10:17:00Z" })).toEqual([
      "2026-10-01T10:15:00.000Z",
      "2026-11-20T10:17:00.000Z",
    ]);
  });
});
