import { DAY_MS, DEFAULT_RETENTION } from "@vu/time-buckets";
import { describe, expect, it } from "vitest";
import { keptState } from "./block";
import { cutRange, planQuery, planTotal } from "./queryPlan";
import { resolveRange } from "./rangeResolution";

const now = Date.parse("2026-11-22T12:00:00Z");
const at = (ms: number) => ({ now: ms, retention: DEFAULT_RETENTION });
const MINUTE = 60_000;

describe("frameKey", () => {
  // Berlin days reaching back past the 400 days of hour blocks: the older local midnights (23:00
  // UTC) are moved onto UTC midnights, the newer ones are exact.
  const params = { startDate: "2025-09-01", endDate: "2025-11-30", timezone: "Europe/Berlin" };
  const frame = (ms: number) => planQuery({ ...params, granularity: "day" }, at(ms)).frame;

  it("stays while no edge of the answer moves, though the kept blocks move every minute", () => {
    expect(keptState(at(now + MINUTE))).not.toBe(keptState(at(now)));
    expect(frame(now + MINUTE)).toBe(frame(now));
  });

  it("changes when retention moves an edge of the answer", () => {
    expect(frame(now + DAY_MS)).not.toBe(frame(now));
    expect(frame(now)).toMatch(/;moved \d+:[\w-]{43}$/);
    const moved = (f: string) => Number(/;moved (\d+):/.exec(f)?.[1]);
    expect(moved(frame(now + DAY_MS))).toBe(moved(frame(now)) + 1);
  });

  it("is what cutting the range alone gives, and names the range and zone", () => {
    const context = at(now);
    const resolved = resolveRange(params, context);
    expect(cutRange(resolved, { granularity: "day" }, context).frame).toBe(frame(now));
    expect(cutRange(resolved, { granularity: "all" }, context).frame).toBe(planTotal(params, context).frame);
    expect(planTotal(params, context).frame).toMatch(/^\d+\.\.\d+@Europe\/Berlin$/);
  });

  it("has no moved edge where every edge is on its grid", () => {
    const recent = { startDate: "2026-11-01", endDate: "2026-11-20", timezone: "Asia/Kathmandu" };
    expect(planQuery({ ...recent, granularity: "hour" }, at(now)).frame).toMatch(
      /^\d+\.\.\d+@Asia\/Kathmandu$/,
    );
  });
});
