import { netCoverage } from "@vu/testkit";
import { DEFAULT_RETENTION, isBlockKept, nextUtc } from "@vu/time-buckets";
import { DateTime } from "luxon";
import { describe, expect, it } from "vitest";
import type { IsKept, SignedBlock } from "./block";
import { coverInterval } from "./blockCover";
import { coverSigned } from "./signedCover";

const MINUTE = 60_000;
const now = Date.parse("2026-11-22T12:00:00Z");
const keptNow: IsKept = (tier, startMs) => isBlockKept(DEFAULT_RETENTION, tier, startMs, now);

/** Per minute, by brute force: how often the cover counts each minute any of its blocks holds. */
function countsPerMinute(blocks: readonly SignedBlock[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const b of blocks) {
    for (let t = b.startMs; t < nextUtc(b.tier, b.startMs); t += MINUTE) {
      counts.set(t, (counts.get(t) ?? 0) + b.sign);
    }
  }
  return counts;
}

/** A seeded generator, so a failure replays. */
function seeded(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const ZONES = [
  "Europe/Berlin",
  "America/New_York",
  "Australia/Adelaide",
  "America/St_Johns",
  "Asia/Kolkata",
  "Asia/Kathmandu",
  "UTC+5:30",
  "UTC+5:45",
  "UTC-3:30",
];
const UNITS = ["hour", "day", "week", "month"] as const;

describe("coverSigned", () => {
  it("covers a Berlin day with the UTC day and two hours, not 24 hours", () => {
    const start = Date.parse("2026-11-09T23:00:00Z");
    const blocks = coverSigned(start, start + 86_400_000, keptNow);
    expect(
      blocks.map((b) => `${b.sign > 0 ? "+" : "-"}${b.tier} ${new Date(b.startMs).toISOString()}`),
    ).toEqual([
      "+hour 2026-11-09T23:00:00.000Z",
      "+day 2026-11-10T00:00:00.000Z",
      "-hour 2026-11-10T23:00:00.000Z",
    ]);
  });

  it("counts every minute of random local buckets in random zones exactly once, and none outside", () => {
    const random = seeded(20261122);
    for (let n = 0; n < 600; n++) {
      const zone = ZONES[Math.floor(random() * ZONES.length)] ?? "UTC";
      const unit = UNITS[Math.floor(random() * UNITS.length)] ?? "day";
      // Within the minute retention, so every local edge is on the stored grid.
      const at = now - Math.floor(random() * 30 * 86_400_000);
      const local = DateTime.fromMillis(at, { zone }).startOf(unit === "week" ? "week" : unit);
      const startMs = Math.max(local.toMillis(), now - 34 * 86_400_000);
      const endMs = Math.min(local.plus({ [`${unit}s`]: 1 }).toMillis(), now);
      if (endMs <= startMs) continue;
      const blocks = coverSigned(startMs, endMs, keptNow);
      const context = `${zone} ${unit} ${new Date(startMs).toISOString()}`;
      expect(netCoverage(blocks), context).toEqual([{ startMs, endMs, weight: 1 }]);
      expect(blocks.length, context).toBeLessThanOrEqual(coverInterval(startMs, endMs, keptNow).length);
      if (unit === "hour" || n % 50 === 0) {
        const counts = countsPerMinute(blocks);
        for (const [minute, count] of counts) {
          expect(count, `${context} minute ${new Date(minute).toISOString()}`).toBe(
            minute >= startMs && minute < endMs ? 1 : 0,
          );
        }
        expect([...counts.keys()].filter((m) => m >= startMs && m < endMs).length).toBe(
          (endMs - startMs) / MINUTE,
        );
      }
    }
  });

  it("uses only blocks that are kept, so old data is still covered from what exists", () => {
    // Beyond the minute retention: edges on the hour grid, covered without minute blocks.
    const start = Date.parse("2026-09-30T18:00:00Z");
    const blocks = coverSigned(start, start + 86_400_000, keptNow);
    expect(blocks.every((b) => keptNow(b.tier, b.startMs))).toBe(true);
    expect(netCoverage(blocks)).toEqual([{ startMs: start, endMs: start + 86_400_000, weight: 1 }]);
    expect(blocks.length).toBeLessThan(24);
  });
});
