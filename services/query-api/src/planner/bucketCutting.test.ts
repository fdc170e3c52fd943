import { DAY_MS, HOUR_MS } from "@vu/time-buckets";
import { DateTime, FixedOffsetZone, IANAZone, type Zone } from "luxon";
import { describe, expect, it } from "vitest";
import { cutBuckets, MAX_BUCKETS, type OutputBucket } from "./bucketCutting";
import type { Granularity } from "./granularity";
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

/** The reference: luxon's own stepping from the first local start, one bucket at a time. */
function referenceStarts(startMs: number, endMs: number, granularity: Granularity, z: Zone): string[] {
  const plural = { hour: "hours", day: "days", week: "weeks", month: "months" } as const;
  const out: string[] = [];
  let dt = DateTime.fromMillis(startMs, { zone: z }).startOf(granularity);
  while (dt.toMillis() < endMs) {
    out.push(dt.toISO() ?? "");
    let next = dt;
    for (let k = 1; next <= dt; k++) next = dt.plus({ [plural[granularity]]: k }).startOf(granularity);
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
    "Pacific/Chatham",
    "America/St_Johns",
    "America/Santiago",
    "Pacific/Apia",
    "Africa/Casablanca",
  ];
  const granularities: Granularity[] = ["hour", "day", "week", "month"];
  const spans: Record<Granularity, number> = {
    hour: 3 * DAY_MS,
    day: 60 * DAY_MS,
    week: 200 * DAY_MS,
    month: 800 * DAY_MS,
  };

  it("labels and cuts exactly as luxon does, in zones with odd offset changes", () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    for (const name of zones) {
      for (const granularity of granularities) {
        for (let round = 0; round < 4; round++) {
          // Around 2011-12 (Apia skipped a day) and the DST changes of 2026.
          const base = Date.parse(round % 2 === 0 ? "2011-12-25T00:00:00Z" : "2026-03-01T00:00:00Z");
          const startMs = base + Math.floor(random() * 300) * DAY_MS + Math.floor(random() * 1440) * 60_000;
          const endMs = startMs + Math.floor(random() * spans[granularity]);
          const z = zone(name);
          const buckets = cutBuckets({ startMs, endMs }, granularity, z);
          expect(
            buckets.map((b) => b.label),
            `${name} ${granularity} ${iso(startMs)}`,
          ).toEqual(referenceStarts(startMs, endMs, granularity, z));
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
