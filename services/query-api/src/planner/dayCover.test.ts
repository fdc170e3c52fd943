import { DAY_MS, isAlignedUtc, nextUtc, type Tier } from "@vu/time-buckets";
import { describe, expect, it } from "vitest";
import type { IsKept } from "./block";
import { coverWholeDays } from "./dayCover";

const at = (iso: string) => Date.parse(iso);

/** Shortest path over day boundaries without splitting at forced cuts: the reference. */
function referenceCount(startMs: number, endMs: number, isKept: IsKept): number {
  const n = (endMs - startMs) / DAY_MS;
  const dist: number[] = [0];
  for (let i = 0; i < n; i++) {
    const t = startMs + i * DAY_MS;
    const here = dist[i];
    if (here === undefined) continue;
    for (const tier of ["day", "week", "month"] as Tier[]) {
      if (!isAlignedUtc(tier, t) || !isKept(tier, t)) continue;
      const j = (nextUtc(tier, t) - startMs) / DAY_MS;
      if (j <= n && here + 1 < (dist[j] ?? Number.POSITIVE_INFINITY)) dist[j] = here + 1;
    }
  }
  return dist[n] ?? -1;
}

describe("coverWholeDays", () => {
  it("splits at Monday-1sts without losing minimality over years", () => {
    const keepAll: IsKept = () => true;
    const noMonths: IsKept = (tier) => tier !== "month";
    const cases: Array<[string, string]> = [
      ["2024-12-29", "2027-03-03"],
      ["2026-05-28", "2026-07-09"],
      ["2025-09-01", "2026-06-08"],
      ["2020-02-27", "2021-03-02"],
    ];
    for (const [from, to] of cases) {
      for (const isKept of [keepAll, noMonths]) {
        const startMs = at(`${from}T00:00:00Z`);
        const endMs = at(`${to}T00:00:00Z`);
        const blocks = coverWholeDays(startMs, endMs, isKept);
        expect(blocks.length, `${from}..${to}`).toBe(referenceCount(startMs, endMs, isKept));
        let cursor = startMs;
        for (const b of blocks) {
          expect(b.startMs).toBe(cursor);
          cursor = nextUtc(b.tier, b.startMs);
        }
        expect(cursor).toBe(endMs);
      }
    }
  });

  it("is empty for an empty interval and rejects intervals not on UTC days", () => {
    expect(coverWholeDays(at("2026-06-01T00:00:00Z"), at("2026-06-01T00:00:00Z"), () => true)).toEqual([]);
    expect(() => coverWholeDays(at("2026-06-01T01:00:00Z"), at("2026-06-03T00:00:00Z"), () => true)).toThrow(
      Error,
    );
  });

  it("covers a millennium with months and years' worth of blocks, not days", () => {
    // A day-by-day cover would be 365,000 blocks; speed itself is the bench's to measure.
    const blocks = coverWholeDays(at("1500-01-01T00:00:00Z"), at("2500-01-01T00:00:00Z"), () => true);
    expect(blocks).toHaveLength(12_000);
  });
});
