import { DAY_MS, DEFAULT_RETENTION, HOUR_MS, MINUTE_MS } from "@vu/time-buckets";
import { describe, expect, it } from "vitest";
import type { PlanContext } from "./block";
import { createCoverCache } from "./coverCache";
import { createCutCache } from "./cutCache";
import type { StatsGranularity } from "./granularity";
import { InvalidParameterError } from "./invalidParameterError";
import { planQuery, type StatsPlanParams } from "./queryPlan";

const now = Date.parse("2026-11-22T12:34:56Z");
const iso = (ms: number) => new Date(ms).toISOString();

/** A small deterministic generator, so a failure names the case that made it. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 2_147_483_648;
  };
}

const ZONES = ["UTC", "Europe/Berlin", "Asia/Kolkata", "Asia/Kathmandu", "America/St_Johns"];
const GRANULARITIES: StatsGranularity[] = ["hour", "day", "week", "month"];

function outcome(params: StatsPlanParams, context: PlanContext) {
  try {
    return planQuery(params, context);
  } catch (error) {
    if (error instanceof InvalidParameterError) return { refused: error.message };
    throw error;
  }
}

describe("the cut cache", () => {
  it("plans what the planner plans without it, for any organization's extent, asked again and again", () => {
    const next = random(7);
    const cuts = createCutCache(DEFAULT_RETENTION);
    const covers = createCoverCache(DEFAULT_RETENTION);
    for (let i = 0; i < 300; i++) {
      const granularity = GRANULARITIES[Math.floor(next() * GRANULARITIES.length)] as StatsGranularity;
      const span = granularity === "hour" ? 10 * DAY_MS : 400 * DAY_MS;
      const startMs = now - Math.floor(next() * span);
      const endMs = Math.min(now + HOUR_MS, startMs + Math.floor(next() * span));
      const params: StatsPlanParams = {
        startDate: iso(Math.floor(startMs / MINUTE_MS) * MINUTE_MS),
        endDate: iso(Math.floor(endMs / MINUTE_MS) * MINUTE_MS),
        timezone: ZONES[Math.floor(next() * ZONES.length)],
        granularity,
        weekStart: next() < 0.5 ? "sunday" : undefined,
      };
      const anywhere = startMs - DAY_MS + Math.floor(next() * (endMs - startMs + 2 * DAY_MS));
      // Half of them on a whole hour, where a bucket's edge meets the extent's.
      const extentStart = next() < 0.5 ? anywhere : Math.floor(anywhere / HOUR_MS) * HOUR_MS;
      const dataExtent =
        next() < 0.2
          ? undefined
          : { startMs: extentStart, endMs: extentStart + Math.floor(next() * 60 * DAY_MS) };
      const maxBlocks = next() < 0.3 ? Math.floor(next() * 200) : undefined;
      const context: PlanContext = { now, retention: DEFAULT_RETENTION, dataExtent, maxBlocks };
      const expected = outcome(params, context);
      // The first ask fills the cache; the second is answered from it; both as without it.
      expect(outcome(params, { ...context, cuts, covers }), `case ${i}`).toEqual(expected);
      expect(outcome(params, { ...context, cuts, covers }), `case ${i}, again`).toEqual(expected);
    }
  });

  it("serves one range's covers to plans of any budget, each as without the cache (a compare's second range)", () => {
    const cuts = createCutCache(DEFAULT_RETENTION);
    const params: StatsPlanParams = { startDate: "2026-11-01", endDate: "2026-11-03", granularity: "hour" };
    const dataExtent = {
      startMs: Date.parse("2026-11-02T10:00:00Z"),
      endMs: Date.parse("2026-11-02T12:00:00Z"),
    };
    const whole = planQuery(params, { now, retention: DEFAULT_RETENTION });
    const total = whole.buckets.reduce((n, bucket) => n + bucket.blocks.length, 0);
    // Budgets under, at and over the whole cut's blocks, in an order that first covers past a
    // budget, then under a larger one, then under smaller ones again.
    const budgets = [10, total + 50, total - 1, total, 1, 5, total + 50, undefined, 20];
    let firstCovered: unknown;
    for (const maxBlocks of budgets) {
      const context: PlanContext = { now, retention: DEFAULT_RETENTION, dataExtent, maxBlocks };
      const planned = outcome(params, { ...context, cuts });
      expect(planned, `budget ${maxBlocks}`).toEqual(outcome(params, context));
      if (maxBlocks === 1) expect(planned).toHaveProperty("refused");
      if (maxBlocks === undefined || maxBlocks >= total) {
        const bucket = "buckets" in planned ? planned.buckets[0] : undefined;
        firstCovered ??= bucket;
        // Covered once, at the first budget the whole cut fit, and served from then on.
        expect(bucket, `budget ${maxBlocks}`).toBe(firstCovered);
      }
    }
  });

  it("weighs a cut with its covers' blocks once covered, and lets it go when they pass the bound", () => {
    const params: StatsPlanParams = { startDate: "2026-11-01", endDate: "2026-11-03", granularity: "hour" };
    const whole = planQuery(params, { now, retention: DEFAULT_RETENTION });
    const blocks = whole.buckets.reduce((n, bucket) => n + bucket.blocks.length, 0);
    const cutWeight = whole.rangeBuckets.length + 2 * whole.buckets.length;
    for (const [maxBuckets, kept] of [
      [cutWeight + blocks, true],
      [cutWeight + blocks - 1, false],
    ] as const) {
      const cuts = createCutCache(DEFAULT_RETENTION, maxBuckets);
      const first = planQuery(params, { now, retention: DEFAULT_RETENTION, cuts });
      const again = planQuery(params, { now, retention: DEFAULT_RETENTION, cuts });
      expect(again.rangeBuckets === first.rangeBuckets, `bound ${maxBuckets}`).toBe(kept);
      expect(again).toEqual(whole);
    }
  });

  it("serves the same covered buckets to every organization, each its extent's part", () => {
    const cuts = createCutCache(DEFAULT_RETENTION);
    const params: StatsPlanParams = { startDate: "2026-11-01", endDate: "2026-11-20", granularity: "hour" };
    const base = { now, retention: DEFAULT_RETENTION, cuts };
    const whole = planQuery(params, base);
    const part = planQuery(params, {
      ...base,
      dataExtent: { startMs: Date.parse("2026-11-05T10:30:00Z"), endMs: Date.parse("2026-11-05T13:00:00Z") },
    });
    expect(whole.buckets).toHaveLength(20 * 24);
    expect(part.buckets.map((b) => b.label)).toEqual([
      "2026-11-05T10:00:00.000Z",
      "2026-11-05T11:00:00.000Z",
      "2026-11-05T12:00:00.000Z",
    ]);
    // The same objects: found once, shared.
    expect(part.buckets[0]).toBe(whole.buckets[4 * 24 + 10]);
    expect(part.rangeBuckets).toBe(whole.rangeBuckets);
  });

  it("cuts anew once the blocks kept change, and under another retention not at all", () => {
    const cuts = createCutCache(DEFAULT_RETENTION);
    const params: StatsPlanParams = { startDate: "2026-11-21", endDate: "2026-11-22", granularity: "hour" };
    const first = planQuery(params, { now, retention: DEFAULT_RETENTION, cuts });
    const again = planQuery(params, { now: now + 1_000, retention: DEFAULT_RETENTION, cuts });
    expect(again.rangeBuckets).toBe(first.rangeBuckets);
    const later = planQuery(params, { now: now + 2 * DAY_MS, retention: DEFAULT_RETENTION, cuts });
    expect(later.rangeBuckets).not.toBe(first.rangeBuckets);
    const other = { ...DEFAULT_RETENTION, hour: 3 * DAY_MS };
    const elsewhere = planQuery(params, { now, retention: other, cuts });
    expect(elsewhere.rangeBuckets).not.toBe(first.rangeBuckets);
    expect(elsewhere).toEqual(planQuery(params, { now, retention: other }));
  });
});
