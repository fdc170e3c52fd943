import type { BlockRef } from "@vu/store";
import { netCoverage } from "@vu/testkit";
import { DAY_MS, DEFAULT_RETENTION, HOUR_MS, type Tier } from "@vu/time-buckets";
import { describe, expect, it } from "vitest";
import { createCoverCache } from "./coverCache";
import type { Granularity } from "./granularity";
import { InvalidParameterError } from "./invalidParameterError";
import { planQuery, planTotal, type StatsPlan } from "./queryPlan";

const now = Date.parse("2026-11-22T12:00:00Z");
const context = { now, retention: DEFAULT_RETENTION };
const iso = (ms: number) => new Date(ms).toISOString();

function tally(blocks: readonly BlockRef[]): Partial<Record<Tier, number>> {
  const counts: Partial<Record<Tier, number>> = {};
  for (const b of blocks) counts[b.tier] = (counts[b.tier] ?? 0) + 1;
  return counts;
}

/** Buckets tile the range exactly and each bucket's signed blocks count the bucket exactly once. */
function expectExactPlan(plan: StatsPlan): void {
  let cursor = plan.range.startMs;
  for (const bucket of plan.buckets) {
    expect(bucket.startMs).toBe(cursor);
    expect(bucket.endMs).toBeGreaterThan(bucket.startMs);
    expect(netCoverage(bucket.blocks)).toEqual([{ startMs: bucket.startMs, endMs: bucket.endMs, weight: 1 }]);
    cursor = bucket.endMs;
  }
  if (plan.buckets.length > 0) expect(cursor).toBe(plan.range.endMs);
}

describe("planQuery", () => {
  it("plans November in UTC by day: 30 day blocks, meta in UTC", () => {
    const plan = planQuery({ startDate: "2026-11-01", endDate: "2026-11-30", granularity: "day" }, context);
    expect(plan.meta).toEqual({
      start_date: "2026-11-01T00:00:00.000Z",
      end_date: "2026-12-01T00:00:00.000Z",
      granularity: "day",
      timezone: "UTC",
    });
    expect(plan.zoneName).toBe("UTC");
    expect(plan.buckets).toHaveLength(30);
    expect(plan.buckets[1]).toEqual({
      label: "2026-11-02T00:00:00.000Z",
      startMs: Date.parse("2026-11-02T00:00:00Z"),
      endMs: Date.parse("2026-11-03T00:00:00Z"),
      blocks: [{ tier: "day", startMs: Date.parse("2026-11-02T00:00:00Z"), sign: 1 }],
    });
    expectExactPlan(plan);
  });

  it("defaults the granularity to day", () => {
    const plan = planQuery({ startDate: "2026-11-01", endDate: "2026-11-02" }, context);
    expect(plan.meta.granularity).toBe("day");
    expect(plan.buckets.map((b) => b.label)).toEqual([
      "2026-11-01T00:00:00.000Z",
      "2026-11-02T00:00:00.000Z",
    ]);
  });

  it("plans Berlin days as UTC days corrected by hours, a 25-hour day too, meta in Berlin time", () => {
    const plan = planQuery(
      { startDate: "2026-10-24", endDate: "2026-10-26", timezone: "Europe/Berlin", granularity: "day" },
      context,
    );
    expect(plan.meta).toEqual({
      start_date: "2026-10-24T00:00:00.000+02:00",
      end_date: "2026-10-27T00:00:00.000+01:00",
      granularity: "day",
      timezone: "Europe/Berlin",
    });
    // + the previous day's last hours, the UTC day, − its own last hours (24 or 25 hours positive).
    expect(plan.buckets.map((b) => [b.label, tally(b.blocks)])).toEqual([
      ["2026-10-24T00:00:00.000+02:00", { hour: 4, day: 1 }],
      ["2026-10-25T00:00:00.000+02:00", { hour: 3, day: 1 }],
      ["2026-10-26T00:00:00.000+01:00", { hour: 2, day: 1 }],
    ]);
    const [first] = plan.buckets;
    expect(first?.blocks.map((b) => `${b.sign > 0 ? "+" : "-"}${b.tier} ${iso(b.startMs)}`)).toEqual([
      "+hour 2026-10-23T22:00:00.000Z",
      "+hour 2026-10-23T23:00:00.000Z",
      "+day 2026-10-24T00:00:00.000Z",
      "-hour 2026-10-24T22:00:00.000Z",
      "-hour 2026-10-24T23:00:00.000Z",
    ]);
    expectExactPlan(plan);
  });

  it("plans a month in UTC by month as one block, and by week as weeks and days", () => {
    const byMonth = planQuery(
      { startDate: "2026-06-01", endDate: "2026-06-30", granularity: "month" },
      context,
    );
    expect(byMonth.buckets.map((b) => b.blocks)).toEqual([
      [{ tier: "month", startMs: Date.parse("2026-06-01Z"), sign: 1 }],
    ]);
    const byWeek = planQuery(
      { startDate: "2026-06-01", endDate: "2026-06-30", granularity: "week" },
      context,
    );
    expect(byWeek.buckets.map((b) => tally(b.blocks))).toEqual([
      { week: 1 },
      { week: 1 },
      { week: 1 },
      { week: 1 },
      { day: 2 },
    ]);
  });

  it("plans quarters and years from month blocks, as months are read (docs/contract.md §9)", () => {
    const year = { startDate: "2025-01-01", endDate: "2025-12-31" };
    const quarters = planQuery({ ...year, granularity: "quarter" }, context);
    expect(quarters.buckets.map((b) => `${b.label} ${JSON.stringify(tally(b.blocks))}`)).toEqual([
      '2025-01-01T00:00:00.000Z {"month":3}',
      '2025-04-01T00:00:00.000Z {"month":3}',
      '2025-07-01T00:00:00.000Z {"month":3}',
      '2025-10-01T00:00:00.000Z {"month":3}',
    ]);
    const years = planQuery({ ...year, granularity: "year" }, context);
    expect(years.buckets.map((b) => tally(b.blocks))).toEqual([{ month: 12 }]);
    expect(years.meta.granularity).toBe("year");
    // In Berlin, a quarter is its UTC months moved by the hours between the local and UTC midnights
    // (within the 400 days of hour blocks; before, the edges move to UTC days, as months' do).
    const recent = { startDate: "2026-01-01", endDate: "2026-09-30", timezone: "Europe/Berlin" };
    const berlin = planQuery({ ...recent, granularity: "quarter" }, context);
    expectExactPlan(berlin);
    expect(berlin.buckets.map((b) => b.label)).toEqual([
      "2026-01-01T00:00:00.000+01:00",
      "2026-04-01T00:00:00.000+02:00",
      "2026-07-01T00:00:00.000+02:00",
    ]);
    expect(tally(berlin.buckets[1]?.blocks ?? [])).toEqual({ month: 3, hour: 4 });
  });

  it("plans Sunday weeks from the week block, moved back a day", () => {
    // 2026-11-01 is a Sunday: the week from Monday 2 November, plus Sunday the 1st, minus Sunday the 8th.
    const weeks = planQuery(
      { startDate: "2026-11-01", endDate: "2026-11-14", granularity: "week", weekStart: "sunday" },
      context,
    );
    expectExactPlan(weeks);
    expect(weeks.buckets.map((b) => `${b.label} ${JSON.stringify(tally(b.blocks))}`)).toEqual([
      '2026-11-01T00:00:00.000Z {"day":2,"week":1}',
      '2026-11-08T00:00:00.000Z {"day":2,"week":1}',
    ]);
    // weekStart changes nothing but weeks.
    const days = { startDate: "2026-11-01", endDate: "2026-11-14", granularity: "day" } as const;
    expect(planQuery({ ...days, weekStart: "sunday" }, context).buckets).toEqual(
      planQuery(days, context).buckets,
    );
  });

  it("plans Kolkata days on the exact local midnight, older than 35 days too (quarter hours)", () => {
    const old = planQuery(
      { startDate: "2026-10-01", endDate: "2026-10-02", timezone: "Asia/Kolkata" },
      context,
    );
    expect(old.meta.start_date).toBe("2026-10-01T00:00:00.000+05:30");
    expect(old.buckets.map((b) => `${b.label} ${iso(b.startMs)} ${iso(b.endMs)}`)).toEqual([
      "2026-10-01T00:00:00.000+05:30 2026-09-30T18:30:00.000Z 2026-10-01T18:30:00.000Z",
      "2026-10-02T00:00:00.000+05:30 2026-10-01T18:30:00.000Z 2026-10-02T18:30:00.000Z",
    ]);
    // Two quarter hours and five hours on each side of the UTC day: 15 blocks.
    expect(tally(old.buckets[0]?.blocks ?? [])).toEqual({ quarter: 4, hour: 10, day: 1 });
    expectExactPlan(old);

    const recent = planQuery(
      { startDate: "2026-11-10", endDate: "2026-11-11", timezone: "Asia/Kolkata" },
      context,
    );
    expect(recent.buckets.map((b) => iso(b.startMs))).toEqual([
      "2026-11-09T18:30:00.000Z",
      "2026-11-10T18:30:00.000Z",
    ]);
    // + 2 quarter hours and 5 hours before the UTC day, the day, − the same at its end: 15 blocks.
    expect(tally(recent.buckets[0]?.blocks ?? [])).toEqual({ quarter: 4, hour: 10, day: 1 });
    expectExactPlan(recent);
  });

  it("plans Berlin days older than 400 days on UTC days", () => {
    const plan = planQuery(
      { startDate: "2025-01-10", endDate: "2025-01-11", timezone: "Europe/Berlin" },
      context,
    );
    expect(plan.meta.start_date).toBe("2025-01-09T01:00:00.000+01:00");
    expect(plan.buckets.map((b) => [b.label, iso(b.startMs), b.blocks])).toEqual([
      [
        "2025-01-09T00:00:00.000+01:00",
        "2025-01-09T00:00:00.000Z",
        [{ tier: "day", startMs: Date.parse("2025-01-09Z"), sign: 1 }],
      ],
      [
        "2025-01-10T00:00:00.000+01:00",
        "2025-01-10T00:00:00.000Z",
        [{ tier: "day", startMs: Date.parse("2025-01-10Z"), sign: 1 }],
      ],
      [
        "2025-01-11T00:00:00.000+01:00",
        "2025-01-11T00:00:00.000Z",
        [{ tier: "day", startMs: Date.parse("2025-01-11Z"), sign: 1 }],
      ],
    ]);
  });

  it("returns no buckets for an empty range", () => {
    const plan = planQuery({ startDate: "2026-11-01T10:00:00Z", endDate: "2026-11-01T10:00:00Z" }, context);
    expect(plan.buckets).toEqual([]);
    expect(plan.meta.start_date).toBe(plan.meta.end_date);
  });

  it("rejects a range needing more than 10,000 buckets naming granularity", () => {
    let problem: unknown;
    try {
      planQuery({ startDate: "2024-01-01", endDate: "2026-01-01", granularity: "hour" }, context);
    } catch (error) {
      problem = error;
    }
    expect(problem).toBeInstanceOf(InvalidParameterError);
    expect((problem as InvalidParameterError).parameter).toBe("granularity");
    expect(
      planQuery({ startDate: "2024-01-01", endDate: "2026-01-01", granularity: "day" }, context).buckets,
    ).toHaveLength(732);
  });
});

describe("planTotal", () => {
  it("covers the whole range with the fewest blocks", () => {
    const plan = planTotal({ startDate: "2026-11-01", endDate: "2026-11-30" }, context);
    expect(plan.blocks).toEqual([{ tier: "month", startMs: Date.parse("2026-11-01T00:00:00Z"), sign: 1 }]);
    expect(plan.meta).toEqual({
      start_date: "2026-11-01T00:00:00.000Z",
      end_date: "2026-12-01T00:00:00.000Z",
      timezone: "UTC",
    });
  });

  it("covers the default week to the minute", () => {
    const plan = planTotal({}, { now: Date.parse("2026-11-22T12:34:56Z"), retention: DEFAULT_RETENTION });
    expect([iso(plan.range.startMs), iso(plan.range.endMs)]).toEqual([
      "2026-11-15T12:34:00.000Z",
      "2026-11-22T12:35:00.000Z",
    ]);
    // Signed: the week from Monday the 16th, minus what lies past the end, plus the Sunday afternoon
    // before it, with quarter hours near the minute edges: 40 blocks (positive, without quarter
    // hours: 90).
    expect(tally(plan.blocks)).toEqual({ minute: 14, quarter: 3, hour: 22, week: 1 });
    expect(netCoverage(plan.blocks)).toEqual([{ ...plan.range, weight: 1 }]);
  });

  it("covers decades with month blocks", () => {
    const plan = planTotal({ startDate: "2000-01-01", endDate: "2029-12-31" }, context);
    expect(tally(plan.blocks)).toEqual({ month: 360 });
  });

  it("takes a repeated interval's cover from the context's cover cache", () => {
    const covers = createCoverCache(DEFAULT_RETENTION);
    const week = { now: Date.parse("2026-11-22T12:34:56Z"), retention: DEFAULT_RETENTION, covers };
    const first = planTotal({ timezone: "Asia/Kathmandu" }, week);
    const again = planTotal({ timezone: "Asia/Kathmandu" }, week);
    expect(again.blocks).toBe(first.blocks);
    expect(first.blocks).toEqual(
      planTotal({ timezone: "Asia/Kathmandu" }, { ...week, covers: undefined }).blocks,
    );
  });
});

describe("planQuery: totals stay exact under snapping", () => {
  it("tiles the resolved range exactly for random zones, granularities and ages", () => {
    let seed = 99;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const zones = [
      "UTC",
      "Europe/Berlin",
      "America/New_York",
      "Asia/Kolkata",
      "Asia/Kathmandu",
      "-03:30",
      "+05:45",
    ];
    const granularities: Granularity[] = ["hour", "day", "week", "month", "quarter", "year"];
    const spans: Record<Granularity, number> = {
      hour: 4 * DAY_MS,
      day: 60 * DAY_MS,
      week: 200 * DAY_MS,
      month: 900 * DAY_MS,
      quarter: 900 * DAY_MS,
      year: 2000 * DAY_MS,
    };
    for (let round = 0; round < 160; round++) {
      const timezone = zones[round % zones.length] ?? "UTC";
      const granularity = granularities[Math.floor(random() * granularities.length)] ?? "day";
      const weekStart = random() < 0.5 ? ("sunday" as const) : undefined;
      const startMs = now - Math.floor(random() * 900) * DAY_MS - Math.floor(random() * 1440) * 60_000;
      const endMs = Math.min(now, startMs + Math.floor(random() * spans[granularity]));
      const params = { startDate: iso(startMs), endDate: iso(endMs), timezone, granularity, weekStart };
      const plan = planQuery(params, context);
      expectExactPlan(plan);
      // Labels strictly increase: a snapped bucket is dropped, never reordered.
      const labels = plan.buckets.map((b) => Date.parse(b.label));
      labels.slice(1).forEach((label, i) => {
        expect(label).toBeGreaterThan(labels[i] ?? 0);
      });
      // The summary answers for exactly the same range.
      const total = planTotal(params, context);
      expect(total.range).toEqual(plan.range);
      expect(netCoverage(total.blocks)).toEqual(
        total.range.endMs > total.range.startMs ? [{ ...total.range, weight: 1 }] : [],
      );
      // Boundaries move by at most half a grid step: a bucket never starts a day before its label.
      for (const b of plan.buckets.slice(1))
        expect(Math.abs(b.startMs - Date.parse(b.label))).toBeLessThanOrEqual(12 * HOUR_MS);
    }
  });
});

describe("the data extent", () => {
  const now = Date.parse("2026-11-22T12:00:00Z");
  const base = { now, retention: DEFAULT_RETENTION };
  const dataExtent = {
    startMs: Date.parse("2026-11-10T07:13:00Z"),
    endMs: Date.parse("2026-11-12T03:00:00Z"),
  };

  it("plans no bucket outside it and leaves the others as they are", () => {
    const params = {
      startDate: "2026-11-01",
      endDate: "2026-11-20",
      granularity: "day" as const,
      timezone: "+05:30",
    };
    const all = planQuery(params, base);
    const clamped = planQuery(params, { ...base, dataExtent });
    expect(clamped.meta).toEqual(all.meta);
    expect(clamped.buckets.map((b) => b.label)).toEqual([
      "2026-11-10T00:00:00.000+05:30",
      "2026-11-11T00:00:00.000+05:30",
      "2026-11-12T00:00:00.000+05:30",
    ]);
    for (const bucket of clamped.buckets) expect(all.buckets).toContainEqual(bucket);
  });

  it("cuts empty time off a summary on the stored grid", () => {
    const params = { startDate: "2020-01-01", endDate: "2026-11-20", timezone: "Asia/Kolkata" };
    const clamped = planTotal(params, { ...base, dataExtent });
    expect(clamped.meta).toEqual(planTotal(params, base).meta);
    expect(netCoverage(clamped.blocks)).toEqual([{ ...dataExtent, weight: 1 }]);
    expect(planTotal(params, { ...base, dataExtent: { startMs: 0, endMs: 0 } }).blocks).toEqual([]);
  });
});

describe("the block limit", () => {
  const context = { now: Date.parse("2026-11-22T12:00:00Z"), retention: DEFAULT_RETENTION };

  it("refuses a plan past maxBlocks with a 400 naming the range, and stops planning there", () => {
    // 9,600 months in +05:45 would need over 100,000 blocks: refused once the first 1,000 are planned.
    const params = {
      startDate: "1500-01-01",
      endDate: "2299-12-31",
      granularity: "month" as const,
      timezone: "+05:45",
    };
    expect(() => planQuery(params, { ...context, maxBlocks: 1_000 })).toThrow(
      expect.objectContaining({
        parameter: "start_date",
        message: expect.stringMatching(
          /^the range 1499-12-31T05:45:00.000\+05:45..2300-01-01T00:00:00.000\+05:45 needs more than 1000 stored blocks/,
        ),
      }),
    );
    expect(() =>
      planTotal({ startDate: "0001-01-01", endDate: "9999-12-31" }, { ...context, maxBlocks: 1_000 }),
    ).toThrow(/needs more than 1000 stored blocks/);
    expect(
      planQuery({ startDate: "2026-11-01", endDate: "2026-11-02" }, { ...context, maxBlocks: 2 }).buckets,
    ).toHaveLength(2);
  });
});

describe("planQuery with granularity=all (docs/contract.md §7)", () => {
  it("plans the whole range as one bucket labelled with its start, covered exactly", () => {
    const plan = planQuery(
      {
        startDate: "2026-11-02T10:30:00",
        endDate: "2026-11-20",
        timezone: "Asia/Kolkata",
        granularity: "all",
      },
      context,
    );
    expect(plan.meta.granularity).toBe("all");
    expect(plan.buckets.map((b) => b.label)).toEqual(["2026-11-02T10:30:00.000+05:30"]);
    expect(plan.rangeBuckets.map((b) => b.label)).toEqual(["2026-11-02T10:30:00.000+05:30"]);
    expectExactPlan(plan);
  });

  it("has no bucket for an empty range", () => {
    const plan = planQuery(
      { startDate: "2026-11-02T10:30:00", endDate: "2026-11-02T10:30:00", granularity: "all" },
      context,
    );
    expect(plan.buckets).toEqual([]);
    expect(plan.rangeBuckets).toEqual([]);
  });
});

describe("planQuery's rangeBuckets (docs/contract.md §7 fill=zero)", () => {
  it("lists every bucket of the range, those outside the data extent too", () => {
    const dataExtent = {
      startMs: Date.parse("2026-11-05T00:00:00Z"),
      endMs: Date.parse("2026-11-06T00:00:00Z"),
    };
    const plan = planQuery(
      { startDate: "2026-11-01", endDate: "2026-11-07", granularity: "day" },
      { ...context, dataExtent },
    );
    expect(plan.buckets.map((b) => b.label)).toEqual(["2026-11-05T00:00:00.000Z"]);
    expect(plan.rangeBuckets.map((b) => b.label.slice(0, 10))).toEqual([
      "2026-11-01",
      "2026-11-02",
      "2026-11-03",
      "2026-11-04",
      "2026-11-05",
      "2026-11-06",
      "2026-11-07",
    ]);
  });
});
