import { describe, expect, it } from "vitest";
import { parseDateParam } from "./dateParam";
import { InvalidParameterError } from "./invalidParameterError";

function problemOf(fn: () => unknown): InvalidParameterError {
  try {
    fn();
  } catch (error) {
    if (error instanceof InvalidParameterError) return error;
    throw error;
  }
  throw new Error("expected an InvalidParameterError");
}

describe("parseDateParam", () => {
  it("reads a date-only value", () => {
    expect(parseDateParam("start_date", "2026-11-01")).toEqual({
      date: { year: 2026, month: 11, day: 1 },
      time: null,
      offsetMinutes: null,
    });
  });

  it("reads a time without a zone", () => {
    expect(parseDateParam("start_date", "2026-11-01T10:17:05")).toEqual({
      date: { year: 2026, month: 11, day: 1 },
      time: { hour: 10, minute: 17, second: 5, millisecond: 0 },
      offsetMinutes: null,
    });
  });

  it("keeps millisecond precision of fractional seconds, truncating beyond", () => {
    expect(parseDateParam("end_date", "2026-11-01T10:17:05.5").time?.millisecond).toBe(500);
    expect(parseDateParam("end_date", "2026-11-01T10:17:05.123456").time?.millisecond).toBe(123);
    expect(parseDateParam("end_date", "2026-11-01T10:17:05.9999").time?.millisecond).toBe(999);
    expect(parseDateParam("end_date", "2026-11-01T10:17:05.04").time?.millisecond).toBe(40);
  });

  it("reads Z and offsets with or without the colon", () => {
    expect(parseDateParam("start_date", "2026-11-01T10:00:00Z").offsetMinutes).toBe(0);
    expect(parseDateParam("start_date", "2026-11-01T10:00:00+05:30").offsetMinutes).toBe(330);
    expect(parseDateParam("start_date", "2026-11-01T10:00:00+0530").offsetMinutes).toBe(330);
    expect(parseDateParam("start_date", "2026-11-01T10:00:00-08:00").offsetMinutes).toBe(-480);
    expect(parseDateParam("start_date", "2026-11-01T10:00:00.250-0800")).toEqual({
      date: { year: 2026, month: 11, day: 1 },
      time: { hour: 10, minute: 0, second: 0, millisecond: 250 },
      offsetMinutes: -480,
    });
  });

  it("accepts a zone after a date-only value", () => {
    expect(parseDateParam("start_date", "2026-11-01+05:45")).toEqual({
      date: { year: 2026, month: 11, day: 1 },
      time: null,
      offsetMinutes: 345,
    });
    expect(parseDateParam("start_date", "2026-11-01Z").offsetMinutes).toBe(0);
  });

  it("reads a space as the + an unencoded query string turned it into", () => {
    expect(parseDateParam("start_date", "2026-11-01T10:00:00 05:30").offsetMinutes).toBe(330);
  });

  it.each([
    ["2026-13-01", "not a calendar date"],
    ["2026-00-10", "not a calendar date"],
    ["2026-02-30", "not a calendar date"],
    ["2026-02-29", "not a calendar date"],
    ["2026-04-31", "not a calendar date"],
    ["2026-11-01T24:00:00", "not a time of day"],
    ["2026-11-01T23:60:00", "not a time of day"],
    ["2026-11-01T23:59:60", "not a time of day"],
    ["2026-11-01T10:00:00+24:00", "out of range"],
    ["2026-11-01T10:00:00+05:60", "out of range"],
  ])("rejects %s (%s)", (value, message) => {
    const problem = problemOf(() => parseDateParam("start_date", value));
    expect(problem).toMatchObject({ parameter: "start_date", message: expect.stringContaining(message) });
  });

  it("accepts 29 February in leap years only", () => {
    expect(parseDateParam("start_date", "2028-02-29").date.day).toBe(29);
    expect(parseDateParam("start_date", "2000-02-29").date.day).toBe(29);
    expect(() => parseDateParam("start_date", "2100-02-29")).toThrow(InvalidParameterError);
  });

  it.each([
    "garbage",
    "",
    "2026-11-1",
    "26-11-01",
    "2026/11/01",
    "2026-11-01T10:00",
    "2026-11-01 10:00:00",
    "2026-11-01 10:00",
    "2026-11-01T10:00:00.",
    "2026-11-01T10:00:00+5",
    "2026-11-01T10:00:00+05:3",
    "2026-11-01T10:00:00z",
    "2026-11-01T10:00:00Europe/Berlin",
    " 2026-11-01",
    "2026-11-01T10:00:00Z ",
  ])("rejects the malformed value %j naming the parameter", (value) => {
    const problem = problemOf(() => parseDateParam("end_date", value));
    expect(problem).toMatchObject({ parameter: "end_date", message: expect.stringContaining("YYYY-MM-DD") });
  });
});
