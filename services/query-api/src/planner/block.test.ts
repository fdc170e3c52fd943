import { DEFAULT_RETENTION, floorUtc, MINUTE_MS, TIERS } from "@vu/time-buckets";
import { describe, expect, it } from "vitest";
import { keptAt, keptState } from "./block";

const retention = DEFAULT_RETENTION;
const at = (now: number) => ({ now, retention });

describe("keptState", () => {
  it("is the same for two moments exactly when keptAt keeps the same blocks", () => {
    const start = Date.parse("2026-11-22T12:00:00Z");
    // Moments a few seconds apart over two hours, and blocks of every tier around each cutoff.
    const moments = Array.from({ length: 1_500 }, (_, i) => start + i * 4_999);
    const probes = TIERS.flatMap((tier) => {
      const keep = retention[tier];
      if (keep === null) return [];
      const edge = floorUtc(tier, start - keep);
      return Array.from({ length: 200 }, (_, i) => ({
        tier,
        startMs: floorUtc(tier, edge + (i - 50) * MINUTE_MS),
      }));
    });
    const kept = (now: number) => probes.map((p) => keptAt(at(now))(p.tier, p.startMs)).join("");
    let changes = 0;
    for (let i = 1; i < moments.length; i++) {
      const [before, after] = [moments[i - 1] as number, moments[i] as number];
      const sameState = keptState(at(before)) === keptState(at(after));
      expect(sameState).toBe(kept(before) === kept(after));
      if (!sameState) changes++;
    }
    // The minute tier's first kept block moves once a minute: about 125 times in these 2 hours.
    expect(changes).toBeGreaterThan(100);
    expect(changes).toBeLessThan(130);
  });
});
