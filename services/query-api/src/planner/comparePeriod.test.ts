import { DEFAULT_RETENTION } from "@vu/time-buckets";
import { describe, expect, it } from "vitest";
import { pairBuckets, previousRange } from "./comparePeriod";
import { formatInstant } from "./instantFormat";
import { planQuery } from "./queryPlan";
import { resolveRange } from "./rangeResolution";

const now = Date.parse("2026-11-22T12:00:00Z");
const context = { now, retention: DEFAULT_RETENTION };

function compared(
  kind: "previous_period" | "previous_year",
  startDate: string,
  endDate: string,
  timezone: string,
) {
  const range = resolveRange({ startDate, endDate, timezone }, context);
  const previous = previousRange(kind, range, context);
  const show = (ms: number) => formatInstant(ms, range.zone);
  return { range, previous, bounds: [show(previous.range.startMs), show(previous.range.endMs)] };
}

/** Each bucket's label, and the label of the previous range's bucket it pairs with. */
function pairs(
  kind: "previous_period" | "previous_year",
  startDate: string,
  endDate: string,
  granularity: "hour" | "day" | "week" | "month",
  timezone = "UTC",
) {
  const { range, previous } = compared(kind, startDate, endDate, timezone);
  const plan = planQuery({ startDate, endDate, timezone, granularity }, context);
  const before = planQuery(
    {
      startDate: new Date(previous.range.startMs).toISOString(),
      endDate: new Date(previous.range.endMs).toISOString(),
      timezone,
      granularity,
    },
    context,
  );
  expect(plan.range).toEqual({ startMs: range.startMs, endMs: range.endMs });
  const paired = pairBuckets(plan.rangeBuckets, before.rangeBuckets, previous.range, previous.shift);
  return plan.rangeBuckets.map((b, i) => [b.label, before.rangeBuckets[paired[i] as number]?.label]);
}

describe("previousRange (docs/contract.md §7 compare)", () => {
  it("previous_period is as long on the wall clock: whole local days across a DST change", () => {
    // March 2026 in Berlin lasts 31 days less an hour; the period before is 31 whole local days.
    expect(compared("previous_period", "2026-03-01", "2026-03-31", "Europe/Berlin").bounds).toEqual([
      "2026-01-29T00:00:00.000+01:00",
      "2026-03-01T00:00:00.000+01:00",
    ]);
    expect(
      compared("previous_period", "2026-11-02T10:30:00", "2026-11-02T12:00:00", "+05:45").bounds,
    ).toEqual(["2026-11-02T09:00:00.000+05:45", "2026-11-02T10:30:00.000+05:45"]);
  });

  it("previous_year is one calendar year back in the zone; the 29th of February becomes the 28th", () => {
    expect(compared("previous_year", "2024-02-29", "2024-03-01", "UTC").bounds).toEqual([
      "2023-02-28T00:00:00.000Z",
      "2023-03-02T00:00:00.000Z",
    ]);
    // The day summer time ends in 2026 (25 hours) against an ordinary day: it ends on 2025-10-26.
    expect(compared("previous_year", "2026-10-25", "2026-10-25", "Europe/Berlin").bounds).toEqual([
      "2025-10-25T00:00:00.000+02:00",
      "2025-10-26T00:00:00.000+02:00",
    ]);
    // Beyond the 400 days of hour blocks the previous range widens to the UTC days still stored.
    expect(compared("previous_year", "2025-03-29", "2025-03-29", "Europe/Berlin").bounds).toEqual([
      "2024-03-28T01:00:00.000+01:00",
      "2024-03-30T01:00:00.000+01:00",
    ]);
  });

  it("an empty range compares with an empty range", () => {
    const { previous } = compared("previous_period", "2026-11-02T10:00:00", "2026-11-02T10:00:00", "UTC");
    expect(previous.range.startMs).toBe(previous.range.endMs);
    expect(pairBuckets([], [], previous.range, previous.shift)).toEqual([]);
  });
});

describe("pairBuckets (docs/contract.md §7 compare)", () => {
  it("pairs days by date one year back; the leap day pairs with the 28th", () => {
    const days = pairs("previous_year", "2024-02-27", "2024-03-01", "day");
    expect(days).toEqual([
      ["2024-02-27T00:00:00.000Z", "2023-02-27T00:00:00.000Z"],
      ["2024-02-28T00:00:00.000Z", "2023-02-28T00:00:00.000Z"],
      ["2024-02-29T00:00:00.000Z", "2023-02-28T00:00:00.000Z"],
      ["2024-03-01T00:00:00.000Z", "2023-03-01T00:00:00.000Z"],
    ]);
  });

  it("pairs by position where the range is whole buckets, also across a DST change", () => {
    const hours = pairs(
      "previous_period",
      "2026-03-29T00:00:00",
      "2026-03-29T05:00:00",
      "hour",
      "Europe/Berlin",
    );
    // Four hours on the clock (02:00 is skipped) against the five before midnight.
    expect(hours.map(([, before]) => before)).toEqual([
      "2026-03-28T19:00:00.000+01:00",
      "2026-03-28T20:00:00.000+01:00",
      "2026-03-28T22:00:00.000+01:00",
      "2026-03-28T23:00:00.000+01:00",
    ]);
    const months = pairs("previous_year", "2026-01-01", "2026-03-31", "month", "Asia/Kolkata");
    expect(months.map(([, before]) => before)).toEqual([
      "2025-01-01T00:00:00.000+05:30",
      "2025-02-01T00:00:00.000+05:30",
      "2025-03-01T00:00:00.000+05:30",
    ]);
  });

  it("a bucket the range cuts into pairs from where the range starts, so every bucket has a counterpart", () => {
    // Weeks start on Monday: 2026-01-07 is a Wednesday, 2025-01-07 a Tuesday, 2025-01-05 a Sunday.
    const weeks = pairs("previous_year", "2026-01-07", "2026-01-20", "week");
    expect(weeks).toEqual([
      ["2026-01-05T00:00:00.000Z", "2025-01-06T00:00:00.000Z"],
      ["2026-01-12T00:00:00.000Z", "2025-01-06T00:00:00.000Z"],
      ["2026-01-19T00:00:00.000Z", "2025-01-13T00:00:00.000Z"],
    ]);
  });
});
