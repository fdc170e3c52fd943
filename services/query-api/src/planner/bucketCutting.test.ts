import type { CalendarUnit } from "@vu/time-buckets";
import { DAY_MS, HOUR_MS } from "@vu/time-buckets";
import { DateTime, FixedOffsetZone, IANAZone, type Zone } from "luxon";
import { describe, expect, it } from "vitest";
import { cutBuckets, MAX_BUCKETS, type OutputBucket } from "./bucketCutting";
import { InvalidParameterError } from "./invalidParameterError";

const UTC = FixedOffsetZone.utcInstance;
const zone = (name: string) => IANAZone.create(name);
const range = (start: string, end: string) => ({ startMs: Date.parse(start), endMs: Date.parse(end) });
const iso = (ms: number) => new Date(ms).toISOString();

/** Buckets as `label [start, end)` lines in UTC, easy to read and to diff. */
function show(buckets: readonly OutputBucket[]): string[] {
  return buckets.map((b) => `${b.label} [${iso(b.startMs)}, ${iso(b.endMs)})`);
}

const hoursLong = (buckets: readonly OutputBucket[]) => buckets.map((b) => (b.endMs - b.startMs) / HOUR_MS);

describe("cutBuckets in UTC", () => {
  it("cuts hours, the first and last partial but labelled with their full start", () => {
    expect(show(cutBuckets(range("2026-11-01T10:17:00Z", "2026-11-01T13:42:00Z"), "hour", UTC))).toEqual([
      "2026-11-01T10:00:00.000Z [2026-11-01T10:17:00.000Z, 2026-11-01T11:00:00.000Z)",
      "2026-11-01T11:00:00.000Z [2026-11-01T11:00:00.000Z, 2026-11-01T12:00:00.000Z)",
      "2026-11-01T12:00:00.000Z [2026-11-01T12:00:00.000Z, 2026-11-01T13:00:00.000Z)",
      "2026-11-01T13:00:00.000Z [2026-11-01T13:00:00.000Z, 2026-11-01T13:42:00.000Z)",
    ]);
  });

  it("cuts days and months", () => {
    const days = cutBuckets(range("2026-11-01T00:00:00Z", "2026-12-01T00:00:00Z"), "day", UTC);
    expect(days).toHaveLength(30);
    expect(days[29]?.label).toBe("2026-11-30T00:00:00.000Z");
    expect(show(cutBuckets(range("2026-01-15T00:00:00Z", "2026-04-10T00:00:00Z"), "month", UTC))).toEqual([
      "2026-01-01T00:00:00.000Z [2026-01-15T00:00:00.000Z, 2026-02-01T00:00:00.000Z)",
      "2026-02-01T00:00:00.000Z [2026-02-01T00:00:00.000Z, 2026-03-01T00:00:00.000Z)",
      "2026-03-01T00:00:00.000Z [2026-03-01T00:00:00.000Z, 2026-04-01T00:00:00.000Z)",
      "2026-04-01T00:00:00.000Z [2026-04-01T00:00:00.000Z, 2026-04-10T00:00:00.000Z)",
    ]);
  });

  it("cuts ISO weeks starting on Monday, across a year end", () => {
    // 2026-12-24 is a Thursday; 2027-01-01 a Friday, in the week of Monday 2026-12-28.
    expect(show(cutBuckets(range("2026-12-24T00:00:00Z", "2027-01-10T12:00:00Z"), "week", UTC))).toEqual([
      "2026-12-21T00:00:00.000Z [2026-12-24T00:00:00.000Z, 2026-12-28T00:00:00.000Z)",
      "2026-12-28T00:00:00.000Z [2026-12-28T00:00:00.000Z, 2027-01-04T00:00:00.000Z)",
      "2027-01-04T00:00:00.000Z [2027-01-04T00:00:00.000Z, 2027-01-10T12:00:00.000Z)",
    ]);
  });

  it("returns no buckets for an empty range", () => {
    expect(cutBuckets(range("2026-11-01T00:00:00Z", "2026-11-01T00:00:00Z"), "day", UTC)).toEqual([]);
  });
});

describe("cutBuckets across DST", () => {
  it("gives Berlin a 23-hour day in spring and a 25-hour day in autumn", () => {
    const berlin = zone("Europe/Berlin");
    const spring = cutBuckets(range("2026-03-27T23:00:00Z", "2026-03-30T22:00:00Z"), "day", berlin);
    expect(spring.map((b) => b.label)).toEqual([
      "2026-03-28T00:00:00.000+01:00",
      "2026-03-29T00:00:00.000+01:00",
      "2026-03-30T00:00:00.000+02:00",
    ]);
    expect(hoursLong(spring)).toEqual([24, 23, 24]);
    const autumn = cutBuckets(range("2026-10-23T22:00:00Z", "2026-10-26T23:00:00Z"), "day", berlin);
    expect(autumn.map((b) => b.label)).toEqual([
      "2026-10-24T00:00:00.000+02:00",
      "2026-10-25T00:00:00.000+02:00",
      "2026-10-26T00:00:00.000+01:00",
    ]);
    expect(hoursLong(autumn)).toEqual([24, 25, 24]);
  });

  it("gives New York a 23-hour day in March and a 25-hour day in November", () => {
    const ny = zone("America/New_York");
    const march = cutBuckets(range("2026-03-07T05:00:00Z", "2026-03-10T04:00:00Z"), "day", ny);
    expect(march.map((b) => b.label)).toEqual([
      "2026-03-07T00:00:00.000-05:00",
      "2026-03-08T00:00:00.000-05:00",
      "2026-03-09T00:00:00.000-04:00",
    ]);
    expect(hoursLong(march)).toEqual([24, 23, 24]);
    const november = cutBuckets(range("2026-10-31T04:00:00Z", "2026-11-03T05:00:00Z"), "day", ny);
    expect(hoursLong(november)).toEqual([24, 25, 24]);
    expect(november[2]?.label).toBe("2026-11-02T00:00:00.000-05:00");
  });

  it("makes the repeated autumn hour two buckets and skips the missing spring hour (Berlin)", () => {
    const berlin = zone("Europe/Berlin");
    expect(show(cutBuckets(range("2026-10-24T22:00:00Z", "2026-10-25T03:00:00Z"), "hour", berlin))).toEqual([
      "2026-10-25T00:00:00.000+02:00 [2026-10-24T22:00:00.000Z, 2026-10-24T23:00:00.000Z)",
      "2026-10-25T01:00:00.000+02:00 [2026-10-24T23:00:00.000Z, 2026-10-25T00:00:00.000Z)",
      "2026-10-25T02:00:00.000+02:00 [2026-10-25T00:00:00.000Z, 2026-10-25T01:00:00.000Z)",
      "2026-10-25T02:00:00.000+01:00 [2026-10-25T01:00:00.000Z, 2026-10-25T02:00:00.000Z)",
      "2026-10-25T03:00:00.000+01:00 [2026-10-25T02:00:00.000Z, 2026-10-25T03:00:00.000Z)",
    ]);
    expect(show(cutBuckets(range("2026-03-28T23:00:00Z", "2026-03-29T02:00:00Z"), "hour", berlin))).toEqual([
      "2026-03-29T00:00:00.000+01:00 [2026-03-28T23:00:00.000Z, 2026-03-29T00:00:00.000Z)",
      "2026-03-29T01:00:00.000+01:00 [2026-03-29T00:00:00.000Z, 2026-03-29T01:00:00.000Z)",
      "2026-03-29T03:00:00.000+02:00 [2026-03-29T01:00:00.000Z, 2026-03-29T02:00:00.000Z)",
    ]);
  });

  it("makes the repeated hour two buckets in New York too, also when the range starts in the second", () => {
    const ny = zone("America/New_York");
    const labels = cutBuckets(range("2026-11-01T04:00:00Z", "2026-11-01T08:00:00Z"), "hour", ny).map(
      (b) => b.label,
    );
    expect(labels).toEqual([
      "2026-11-01T00:00:00.000-04:00",
      "2026-11-01T01:00:00.000-04:00",
      "2026-11-01T01:00:00.000-05:00",
      "2026-11-01T02:00:00.000-05:00",
    ]);
    // 06:30Z is 01:30 in the second, EST, occurrence.
    expect(show(cutBuckets(range("2026-11-01T06:30:00Z", "2026-11-01T07:00:00Z"), "hour", ny))).toEqual([
      "2026-11-01T01:00:00.000-05:00 [2026-11-01T06:30:00.000Z, 2026-11-01T07:00:00.000Z)",
    ]);
  });

  it("starts Berlin weeks on Monday local midnight and months on the 1st", () => {
    const berlin = zone("Europe/Berlin");
    const weeks = cutBuckets(range("2026-10-20T00:00:00Z", "2026-11-03T00:00:00Z"), "week", berlin);
    expect(weeks.map((b) => b.label)).toEqual([
      "2026-10-19T00:00:00.000+02:00",
      "2026-10-26T00:00:00.000+01:00",
      "2026-11-02T00:00:00.000+01:00",
    ]);
    expect(iso(weeks[1]?.startMs ?? 0)).toBe("2026-10-25T23:00:00.000Z");
    expect((weeks[0]?.endMs ?? 0) - (weeks[1]?.startMs ?? 1)).toBe(0);
    const months = cutBuckets(range("2026-02-28T23:00:00Z", "2026-05-31T22:00:00Z"), "month", berlin);
    expect(show(months)).toEqual([
      "2026-03-01T00:00:00.000+01:00 [2026-02-28T23:00:00.000Z, 2026-03-31T22:00:00.000Z)",
      "2026-04-01T00:00:00.000+02:00 [2026-03-31T22:00:00.000Z, 2026-04-30T22:00:00.000Z)",
      "2026-05-01T00:00:00.000+02:00 [2026-04-30T22:00:00.000Z, 2026-05-31T22:00:00.000Z)",
    ]);
  });
});

describe("cutBuckets in zones off the UTC hour", () => {
  it("starts Asia/Kolkata and Asia/Kathmandu days at their local midnight", () => {
    const kolkata = cutBuckets(
      range("2026-11-01T18:30:00Z", "2026-11-03T18:30:00Z"),
      "day",
      zone("Asia/Kolkata"),
    );
    expect(show(kolkata)).toEqual([
      "2026-11-02T00:00:00.000+05:30 [2026-11-01T18:30:00.000Z, 2026-11-02T18:30:00.000Z)",
      "2026-11-03T00:00:00.000+05:30 [2026-11-02T18:30:00.000Z, 2026-11-03T18:30:00.000Z)",
    ]);
    const kathmandu = cutBuckets(
      range("2026-11-02T00:00:00Z", "2026-11-03T00:00:00Z"),
      "day",
      zone("Asia/Kathmandu"),
    );
    expect(show(kathmandu)).toEqual([
      "2026-11-02T00:00:00.000+05:45 [2026-11-02T00:00:00.000Z, 2026-11-02T18:15:00.000Z)",
      "2026-11-03T00:00:00.000+05:45 [2026-11-02T18:15:00.000Z, 2026-11-03T00:00:00.000Z)",
    ]);
  });

  it("starts Kathmandu hours at a quarter past the UTC hour", () => {
    const hours = cutBuckets(
      range("2026-11-02T00:00:00Z", "2026-11-02T02:00:00Z"),
      "hour",
      zone("Asia/Kathmandu"),
    );
    expect(show(hours)).toEqual([
      "2026-11-02T05:00:00.000+05:45 [2026-11-02T00:00:00.000Z, 2026-11-02T00:15:00.000Z)",
      "2026-11-02T06:00:00.000+05:45 [2026-11-02T00:15:00.000Z, 2026-11-02T01:15:00.000Z)",
      "2026-11-02T07:00:00.000+05:45 [2026-11-02T01:15:00.000Z, 2026-11-02T02:00:00.000Z)",
    ]);
  });

  it("cuts a fixed offset zone", () => {
    const minus8 = FixedOffsetZone.instance(-480);
    expect(
      cutBuckets(range("2026-11-02T08:00:00Z", "2026-11-04T08:00:00Z"), "day", minus8).map((b) => b.label),
    ).toEqual(["2026-11-02T00:00:00.000-08:00", "2026-11-03T00:00:00.000-08:00"]);
  });
});

describe("cutBuckets by quarter, year and Sunday week (docs/contract.md §9)", () => {
  it("cuts UTC quarters and years on the first of January, April, July and October", () => {
    expect(show(cutBuckets(range("2026-02-10T00:00:00Z", "2026-08-01T00:00:00Z"), "quarter", UTC))).toEqual([
      "2026-01-01T00:00:00.000Z [2026-02-10T00:00:00.000Z, 2026-04-01T00:00:00.000Z)",
      "2026-04-01T00:00:00.000Z [2026-04-01T00:00:00.000Z, 2026-07-01T00:00:00.000Z)",
      "2026-07-01T00:00:00.000Z [2026-07-01T00:00:00.000Z, 2026-08-01T00:00:00.000Z)",
    ]);
    expect(
      cutBuckets(range("2024-06-01T00:00:00Z", "2027-01-01T00:00:00Z"), "year", UTC).map((b) => b.label),
    ).toEqual(["2024-01-01T00:00:00.000Z", "2025-01-01T00:00:00.000Z", "2026-01-01T00:00:00.000Z"]);
  });

  it("starts Berlin quarters at local midnight, whichever side of a DST change, and years at New Year's local midnight", () => {
    const berlin = zone("Europe/Berlin");
    // Q1 holds the spring change (a 23-hour day), Q4 starts in summer time's end (+01:00 again on 25 October).
    const quarters = cutBuckets(range("2025-12-31T23:00:00Z", "2026-12-31T23:00:00Z"), "quarter", berlin);
    expect(show(quarters)).toEqual([
      "2026-01-01T00:00:00.000+01:00 [2025-12-31T23:00:00.000Z, 2026-03-31T22:00:00.000Z)",
      "2026-04-01T00:00:00.000+02:00 [2026-03-31T22:00:00.000Z, 2026-06-30T22:00:00.000Z)",
      "2026-07-01T00:00:00.000+02:00 [2026-06-30T22:00:00.000Z, 2026-09-30T22:00:00.000Z)",
      "2026-10-01T00:00:00.000+02:00 [2026-09-30T22:00:00.000Z, 2026-12-31T23:00:00.000Z)",
    ]);
    // 90 days less the hour skipped in March; 92 days and the hour repeated in October.
    expect(hoursLong(quarters)).toEqual([90 * 24 - 1, 91 * 24, 92 * 24, 92 * 24 + 1]);
    const years = cutBuckets(range("2025-06-01T00:00:00Z", "2027-02-01T00:00:00Z"), "year", berlin);
    expect(show(years)).toEqual([
      "2025-01-01T00:00:00.000+01:00 [2025-06-01T00:00:00.000Z, 2025-12-31T23:00:00.000Z)",
      "2026-01-01T00:00:00.000+01:00 [2025-12-31T23:00:00.000Z, 2026-12-31T23:00:00.000Z)",
      "2027-01-01T00:00:00.000+01:00 [2026-12-31T23:00:00.000Z, 2027-02-01T00:00:00.000Z)",
    ]);
  });

  it("starts quarters at the local midnight of St John's (−03:30/−02:30), Kathmandu (+05:45) and Adelaide (+10:30/+09:30)", () => {
    const labels = (name: string) =>
      cutBuckets(range("2026-01-01T00:00:00Z", "2027-01-01T00:00:00Z"), "quarter", zone(name)).map(
        (b) => `${b.label} ${iso(b.startMs)}`,
      );
    expect(labels("America/St_Johns")).toEqual([
      "2025-10-01T00:00:00.000-02:30 2026-01-01T00:00:00.000Z",
      "2026-01-01T00:00:00.000-03:30 2026-01-01T03:30:00.000Z",
      "2026-04-01T00:00:00.000-02:30 2026-04-01T02:30:00.000Z",
      "2026-07-01T00:00:00.000-02:30 2026-07-01T02:30:00.000Z",
      "2026-10-01T00:00:00.000-02:30 2026-10-01T02:30:00.000Z",
    ]);
    expect(labels("Asia/Kathmandu")).toEqual([
      "2026-01-01T00:00:00.000+05:45 2026-01-01T00:00:00.000Z",
      "2026-04-01T00:00:00.000+05:45 2026-03-31T18:15:00.000Z",
      "2026-07-01T00:00:00.000+05:45 2026-06-30T18:15:00.000Z",
      "2026-10-01T00:00:00.000+05:45 2026-09-30T18:15:00.000Z",
      "2027-01-01T00:00:00.000+05:45 2026-12-31T18:15:00.000Z",
    ]);
    // Adelaide's summer time ends on the first Sunday of April and starts on the first of October.
    expect(labels("Australia/Adelaide")).toEqual([
      "2026-01-01T00:00:00.000+10:30 2026-01-01T00:00:00.000Z",
      "2026-04-01T00:00:00.000+10:30 2026-03-31T13:30:00.000Z",
      "2026-07-01T00:00:00.000+09:30 2026-06-30T14:30:00.000Z",
      "2026-10-01T00:00:00.000+09:30 2026-09-30T14:30:00.000Z",
      "2027-01-01T00:00:00.000+10:30 2026-12-31T13:30:00.000Z",
    ]);
  });

  it("starts Sunday weeks at Sunday's local midnight, also across a DST change on that Sunday", () => {
    // Berlin changes on Sunday 29 March and Sunday 25 October 2026 at 02:00/03:00.
    const berlin = zone("Europe/Berlin");
    const spring = cutBuckets(range("2026-03-21T23:00:00Z", "2026-04-05T22:00:00Z"), "sundayWeek", berlin);
    expect(show(spring)).toEqual([
      "2026-03-22T00:00:00.000+01:00 [2026-03-21T23:00:00.000Z, 2026-03-28T23:00:00.000Z)",
      "2026-03-29T00:00:00.000+01:00 [2026-03-28T23:00:00.000Z, 2026-04-04T22:00:00.000Z)",
      "2026-04-05T00:00:00.000+02:00 [2026-04-04T22:00:00.000Z, 2026-04-05T22:00:00.000Z)",
    ]);
    expect(hoursLong(spring)).toEqual([168, 167, 24]);
    const autumn = cutBuckets(range("2026-10-24T22:00:00Z", "2026-11-07T23:00:00Z"), "sundayWeek", berlin);
    expect(autumn.map((b) => b.label)).toEqual([
      "2026-10-25T00:00:00.000+02:00",
      "2026-11-01T00:00:00.000+01:00",
    ]);
    expect(hoursLong(autumn)).toEqual([169, 168]);
  });

  it("starts Sunday weeks in Adelaide, Kathmandu and St John's at their local midnight", () => {
    const weeks = (name: string) =>
      cutBuckets(range("2026-04-01T00:00:00Z", "2026-04-15T00:00:00Z"), "sundayWeek", zone(name)).map(
        (b) => b.label,
      );
    // Adelaide leaves summer time on Sunday 5 April 2026 at 03:00 (+10:30 → +09:30).
    expect(weeks("Australia/Adelaide")).toEqual([
      "2026-03-29T00:00:00.000+10:30",
      "2026-04-05T00:00:00.000+10:30",
      "2026-04-12T00:00:00.000+09:30",
    ]);
    expect(weeks("Asia/Kathmandu")).toEqual([
      "2026-03-29T00:00:00.000+05:45",
      "2026-04-05T00:00:00.000+05:45",
      "2026-04-12T00:00:00.000+05:45",
    ]);
    expect(weeks("America/St_Johns")).toEqual([
      "2026-03-29T00:00:00.000-02:30",
      "2026-04-05T00:00:00.000-02:30",
      "2026-04-12T00:00:00.000-02:30",
    ]);
  });

  it("starts a Sunday week where a zone skips Sunday's midnight (São Paulo, 2018-11-04 began at 01:00)", () => {
    const weeks = cutBuckets(
      range("2018-10-30T00:00:00Z", "2018-11-13T00:00:00Z"),
      "sundayWeek",
      zone("America/Sao_Paulo"),
    );
    expect(weeks.map((b) => b.label)).toEqual([
      "2018-10-28T00:00:00.000-03:00",
      "2018-11-04T01:00:00.000-02:00",
      "2018-11-11T00:00:00.000-02:00",
    ]);
  });
});

describe("cutBuckets limit", () => {
  it("allows exactly 10,000 buckets and rejects one more naming granularity", () => {
    const start = Date.parse("2026-01-01T00:00:00Z");
    expect(cutBuckets({ startMs: start, endMs: start + MAX_BUCKETS * HOUR_MS }, "hour", UTC)).toHaveLength(
      MAX_BUCKETS,
    );
    let problem: unknown;
    try {
      cutBuckets({ startMs: start, endMs: start + MAX_BUCKETS * HOUR_MS + 60_000 }, "hour", UTC);
    } catch (error) {
      problem = error;
    }
    expect(problem).toBeInstanceOf(InvalidParameterError);
    expect(problem).toMatchObject({
      parameter: "granularity",
      message: expect.stringMatching(/more than 10000 hour buckets.*coarser granularity/),
    });
  });

  it("refuses a huge range instead of materialising it", () => {
    // 44 million hours: materialised first, this would run into the test's timeout.
    expect(() =>
      cutBuckets({ startMs: 0, endMs: 5000 * 365 * DAY_MS }, "hour", zone("Europe/Berlin")),
    ).toThrow(InvalidParameterError);
  });
});

/**
 * The reference start of a unit, written apart from the planner's: luxon's own units, and a
 * Sunday week as the local day minus its weekday (luxon: Monday 1 … Sunday 7) counted mod 7.
 */
function referenceStartOf(dt: DateTime, unit: CalendarUnit): DateTime {
  if (unit !== "sundayWeek") return dt.startOf(unit);
  const day = dt.startOf("day");
  return day.minus({ days: day.weekday % 7 }).startOf("day");
}

/** The reference: luxon's own stepping from the first local start, one bucket at a time. */
function referenceStarts(startMs: number, endMs: number, unit: CalendarUnit, z: Zone): string[] {
  const plural = {
    hour: "hours",
    day: "days",
    week: "weeks",
    sundayWeek: "weeks",
    month: "months",
    quarter: "quarters",
    year: "years",
  } as const;
  const out: string[] = [];
  let dt = referenceStartOf(DateTime.fromMillis(startMs, { zone: z }), unit);
  while (dt.toMillis() < endMs) {
    out.push(dt.toISO() ?? "");
    let next = dt;
    for (let k = 1; next <= dt; k++) next = referenceStartOf(dt.plus({ [plural[unit]]: k }), unit);
    dt = next;
  }
  return out;
}

describe("cutBuckets against luxon's stepping", () => {
  const zones = [
    "Europe/Berlin",
    "America/New_York",
    "Asia/Kathmandu",
    "Australia/Lord_Howe",
    "Australia/Adelaide",
    "Pacific/Chatham",
    "America/St_Johns",
    "America/Santiago",
    "America/Sao_Paulo",
    "Pacific/Apia",
    "Africa/Casablanca",
  ];
  const units: CalendarUnit[] = ["hour", "day", "week", "sundayWeek", "month", "quarter", "year"];
  const spans: Record<CalendarUnit, number> = {
    hour: 3 * DAY_MS,
    day: 60 * DAY_MS,
    week: 200 * DAY_MS,
    sundayWeek: 200 * DAY_MS,
    month: 800 * DAY_MS,
    quarter: 1500 * DAY_MS,
    year: 4000 * DAY_MS,
  };

  it("labels and cuts exactly as luxon does, in zones with odd offset changes", () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (const name of zones) {
      for (const unit of units) {
        for (let round = 0; round < 4; round++) {
          // Around 2011-12 (Apia skipped a day; Sao Paulo skipped midnights then) and the DST changes of 2026.
          const base = Date.parse(round % 2 === 0 ? "2011-12-25T00:00:00Z" : "2026-03-01T00:00:00Z");
          const startMs = base + Math.floor(random() * 300) * DAY_MS + Math.floor(random() * 1440) * 60_000;
          const endMs = startMs + Math.floor(random() * spans[unit]);
          const z = zone(name);
          const buckets = cutBuckets({ startMs, endMs }, unit, z);
          expect(
            buckets.map((b) => b.label),
            `${name} ${unit} ${iso(startMs)}`,
          ).toEqual(referenceStarts(startMs, endMs, unit, z));
          // Contiguous, and spanning the range exactly.
          if (buckets.length > 0) {
            expect(buckets[0]?.startMs).toBe(startMs);
            expect(buckets.at(-1)?.endMs).toBe(endMs);
          }
          buckets.slice(1).forEach((b, i) => {
            expect(b.startMs).toBe(buckets[i]?.endMs);
          });
        }
      }
    }
  });
});
