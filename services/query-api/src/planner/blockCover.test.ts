import type { BlockRef } from "@vu/store";
import { DAY_MS, floorUtc, isAlignedUtc, MINUTE_MS, nextUtc, TIERS, type Tier } from "@vu/time-buckets";
import { describe, expect, it } from "vitest";
import type { IsKept } from "./block";
import { coverInterval } from "./blockCover";

const at = (iso: string) => Date.parse(iso);
const keepAll: IsKept = () => true;
const blockEnd = (b: BlockRef) => nextUtc(b.tier, b.startMs);

/** Tier counts of a cover, e.g. `{ minute: 43, hour: 3 }`. */
function tally(blocks: readonly BlockRef[]): Partial<Record<Tier, number>> {
  const counts: Partial<Record<Tier, number>> = {};
  for (const b of blocks) counts[b.tier] = (counts[b.tier] ?? 0) + 1;
  return counts;
}

/** Blocks are aligned, sorted, disjoint, inside, kept and their union is exactly the interval. */
function expectExactCover(
  blocks: readonly BlockRef[],
  startMs: number,
  endMs: number,
  isKept: IsKept = keepAll,
) {
  let cursor = startMs;
  for (const b of blocks) {
    expect(isAlignedUtc(b.tier, b.startMs)).toBe(true);
    expect(isKept(b.tier, b.startMs)).toBe(true);
    expect(b.startMs).toBe(cursor);
    cursor = blockEnd(b);
  }
  expect(cursor).toBe(endMs);
}

/** The fewest blocks by brute force: shortest path over every minute boundary of the interval. */
function bruteForceCount(startMs: number, endMs: number, isKept: IsKept): number | null {
  const n = (endMs - startMs) / MINUTE_MS;
  const dist = new Int32Array(n + 1).fill(-1);
  dist[0] = 0;
  for (let i = 0; i < n; i++) {
    const here = dist[i] ?? -1;
    if (here < 0) continue;
    const t = startMs + i * MINUTE_MS;
    for (const tier of TIERS) {
      if (floorUtc(tier, t) !== t || !isKept(tier, t)) continue;
      const j = (nextUtc(tier, t) - startMs) / MINUTE_MS;
      if (j <= n && ((dist[j] ?? -1) < 0 || here + 1 < (dist[j] ?? 0))) dist[j] = here + 1;
    }
  }
  const best = dist[n] ?? -1;
  return best < 0 ? null : best;
}

describe("coverInterval: hand-checked covers", () => {
  it("covers aligned whole days with day blocks", () => {
    // 2026-11-03 is a Tuesday: no week fits.
    const blocks = coverInterval(at("2026-11-03T00:00:00Z"), at("2026-11-06T00:00:00Z"), keepAll);
    expect(blocks).toEqual([
      { tier: "day", startMs: at("2026-11-03T00:00:00Z") },
      { tier: "day", startMs: at("2026-11-04T00:00:00Z") },
      { tier: "day", startMs: at("2026-11-05T00:00:00Z") },
    ]);
  });

  it("covers a full month with one month block", () => {
    expect(coverInterval(at("2026-11-01T00:00:00Z"), at("2026-12-01T00:00:00Z"), keepAll)).toEqual([
      { tier: "month", startMs: at("2026-11-01T00:00:00Z") },
    ]);
    // June 2026 starts on a Monday: the month (1) still beats 4 weeks + 2 days.
    expect(coverInterval(at("2026-06-01T00:00:00Z"), at("2026-07-01T00:00:00Z"), keepAll)).toEqual([
      { tier: "month", startMs: at("2026-06-01T00:00:00Z") },
    ]);
  });

  it("prefers five weeks over June + 5 days from Monday 2026-06-01", () => {
    const start = at("2026-06-01T00:00:00Z");
    const blocks = coverInterval(start, start + 35 * DAY_MS, keepAll);
    expect(blocks).toEqual([0, 1, 2, 3, 4].map((k) => ({ tier: "week", startMs: start + k * 7 * DAY_MS })));
  });

  it("covers 10:17–14:42 with 13 minutes, 2 quarters, 3 hours, 2 quarters and 12 minutes", () => {
    const startMs = at("2026-11-04T10:17:00Z");
    const endMs = at("2026-11-04T14:42:00Z");
    const blocks = coverInterval(startMs, endMs, keepAll);
    expect(tally(blocks)).toEqual({ minute: 25, quarter: 4, hour: 3 });
    expect(
      blocks.slice(12, 21).map((b) => `${b.tier}@${new Date(b.startMs).toISOString().slice(11, 16)}`),
    ).toEqual([
      "minute@10:29",
      "quarter@10:30",
      "quarter@10:45",
      "hour@11:00",
      "hour@12:00",
      "hour@13:00",
      "quarter@14:00",
      "quarter@14:15",
      "minute@14:30",
    ]);
    expectExactCover(blocks, startMs, endMs);
  });

  it("covers a Berlin local day with hour blocks", () => {
    const startMs = at("2026-11-01T23:00:00Z");
    const endMs = at("2026-11-02T23:00:00Z");
    const blocks = coverInterval(startMs, endMs, keepAll);
    expect(tally(blocks)).toEqual({ hour: 24 });
    expectExactCover(blocks, startMs, endMs);
  });

  it("uses minutes up to quarter-hour edges, and only minutes where no quarter hour fits", () => {
    expect(tally(coverInterval(at("2026-11-04T10:05:00Z"), at("2026-11-04T10:35:00Z"), keepAll))).toEqual({
      minute: 15,
      quarter: 1,
    });
    expect(tally(coverInterval(at("2026-11-04T10:50:00Z"), at("2026-11-04T11:10:00Z"), keepAll))).toEqual({
      minute: 20,
    });
    expect(coverInterval(at("2026-11-04T10:50:00Z"), at("2026-11-04T10:50:00Z"), keepAll)).toEqual([]);
  });

  it("combines every tier over a long ragged interval", () => {
    const startMs = at("2026-10-30T22:17:00Z");
    const endMs = at("2026-12-02T01:05:00Z");
    const blocks = coverInterval(startMs, endMs, keepAll);
    // 13 min, 2 quarters, 23:00 hour, Oct 31, November, Dec 1, 00:00 hour, 5 min.
    expect(tally(blocks)).toEqual({ minute: 18, quarter: 2, hour: 2, day: 2, month: 1 });
    expectExactCover(blocks, startMs, endMs);
  });

  it("avoids blocks that are not kept", () => {
    const noWeeks: IsKept = (tier) => tier !== "week";
    const start = at("2026-06-01T00:00:00Z");
    expect(tally(coverInterval(start, start + 35 * DAY_MS, noWeeks))).toEqual({ month: 1, day: 5 });
  });

  it("throws a plain Error for intervals it cannot cover", () => {
    expect(() => coverInterval(at("2026-11-04T10:00:30Z"), at("2026-11-04T11:00:00Z"), keepAll)).toThrow(
      /whole minutes/,
    );
    expect(() => coverInterval(at("2026-11-05T00:00:00Z"), at("2026-11-04T00:00:00Z"), keepAll)).toThrow(
      Error,
    );
    const noMinutes: IsKept = (tier) => tier !== "minute";
    expect(() => coverInterval(at("2026-11-04T10:17:00Z"), at("2026-11-04T12:00:00Z"), noMinutes)).toThrow(
      /minute block .* no longer kept/,
    );
    const noDays: IsKept = (tier) => tier === "minute" || tier === "hour";
    expect(() => coverInterval(at("2026-11-04T00:00:00Z"), at("2026-11-06T00:00:00Z"), noDays)).toThrow(
      /cannot cover/,
    );
  });
});

describe("coverInterval: minimal against brute force", () => {
  let seed = 20261122;
  const random = () => {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
  };
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

  /** Random starts near the edges where tiers interact: month starts, Mondays, midnights. */
  function randomStart(): number {
    const anchor = pick([
      at("2026-06-01T00:00:00Z"), // Monday and the 1st
      at("2026-03-01T00:00:00Z"), // Sunday
      at("2026-02-01T00:00:00Z"), // Sunday, short month
      at("2026-12-28T00:00:00Z"), // Monday, across a year end
      at("2028-02-01T00:00:00Z"), // leap February
    ]);
    const days = Math.floor(random() * 15) - 7;
    const minutes =
      random() < 0.4 ? 0 : random() < 0.5 ? 60 * Math.floor(random() * 24) : Math.floor(random() * 1440);
    return anchor + days * DAY_MS + minutes * MINUTE_MS;
  }

  function randomLength(): number {
    const r = random();
    if (r < 0.2) return Math.floor(random() * 180) * MINUTE_MS;
    if (r < 0.7) return Math.floor(random() * 5 * 1440) * MINUTE_MS;
    if (r < 0.85)
      return (
        Math.floor(random() * 45) * DAY_MS + (random() < 0.5 ? 0 : Math.floor(random() * 1440) * MINUTE_MS)
      );
    return Math.floor(random() * 70) * DAY_MS;
  }

  /** A retention that keeps finer tiers no longer than coarser ones, like the real one. */
  function randomKept(endMs: number): IsKept {
    if (random() < 0.5) return keepAll;
    const minuteFrom = endMs - Math.floor(random() * 3 * DAY_MS);
    const quarterFrom = minuteFrom - Math.floor(random() * 10 * DAY_MS);
    const hourFrom = quarterFrom - Math.floor(random() * 10 * DAY_MS);
    const weeks = random() < 0.7;
    return (tier, startMs) => {
      if (tier === "minute") return startMs >= minuteFrom;
      if (tier === "quarter") return startMs >= quarterFrom;
      if (tier === "hour") return startMs >= hourFrom;
      return tier !== "week" || weeks;
    };
  }

  it("never uses more blocks than the shortest path over minute boundaries", () => {
    let compared = 0;
    for (let round = 0; round < 150; round++) {
      const startMs = randomStart();
      const endMs = startMs + randomLength();
      const isKept = randomKept(endMs);
      const best = bruteForceCount(startMs, endMs, isKept);
      const label = `${new Date(startMs).toISOString()}..${new Date(endMs).toISOString()}`;
      if (best === null) {
        expect(() => coverInterval(startMs, endMs, isKept), label).toThrow(Error);
        continue;
      }
      const blocks = coverInterval(startMs, endMs, isKept);
      expectExactCover(blocks, startMs, endMs, isKept);
      expect(blocks.length, label).toBe(best);
      compared++;
    }
    expect(compared).toBeGreaterThan(100);
  });
});
