import { DAY_MS, DEFAULT_RETENTION, HOUR_MS } from "@vu/time-buckets";
import { describe, expect, it } from "vitest";
import { keptAt, type SignedBlock } from "./block";
import { createCoverCache } from "./coverCache";
import { planQuery } from "./queryPlan";
import { coverSigned } from "./signedCover";

const now = Date.parse("2026-11-22T12:00:00Z");

describe("createCoverCache", () => {
  it("finds a cover once and serves it again while its blocks are kept", () => {
    const cache = createCoverCache(DEFAULT_RETENTION);
    const isKept = keptAt({ now, retention: DEFAULT_RETENTION });
    const start = Date.parse("2026-11-10T23:00:00Z");
    let searches = 0;
    const search = () => {
      searches++;
      return coverSigned(start, start + DAY_MS, isKept);
    };
    const first = cache.cover(start, start + DAY_MS, isKept, search);
    expect(cache.cover(start, start + DAY_MS, isKept, search)).toBe(first);
    expect(searches).toBe(1);
    // Once a block of the cover is no longer kept, the cover is searched anew.
    const [gone] = first;
    const later = (tier: string, startMs: number) => !(tier === gone?.tier && startMs === gone?.startMs);
    const replacement: SignedBlock[] = [{ tier: "minute", startMs: start, sign: 1 }];
    expect(cache.cover(start, start + DAY_MS, later, () => replacement)).toBe(replacement);
    expect(cache.cover(start, start + DAY_MS, later, search)).toBe(replacement);
    expect(searches).toBe(1);
  });

  it("forgets the entry used longest ago when full", () => {
    const cache = createCoverCache(DEFAULT_RETENTION, 2);
    const isKept = () => true;
    let searches = 0;
    const cover = (hour: number) =>
      cache.cover(hour * HOUR_MS, (hour + 1) * HOUR_MS, isKept, () => {
        searches++;
        return [{ tier: "hour", startMs: hour * HOUR_MS, sign: 1 }];
      });
    cover(1);
    cover(2);
    cover(1);
    cover(3);
    expect(searches).toBe(3);
    cover(1);
    expect(searches).toBe(3);
    cover(2);
    expect(searches).toBe(4);
  });

  it("gives planQuery the very plan it makes without a cache, and is bypassed for another retention", () => {
    const params = {
      startDate: "2026-10-23",
      endDate: "2026-11-21",
      timezone: "Asia/Kolkata",
      granularity: "day" as const,
    };
    const covers = createCoverCache(DEFAULT_RETENTION);
    const plain = planQuery(params, { now, retention: DEFAULT_RETENTION });
    planQuery(params, { now, retention: DEFAULT_RETENTION, covers });
    expect(planQuery(params, { now, retention: DEFAULT_RETENTION, covers })).toEqual(plain);
    const shorter = { ...DEFAULT_RETENTION, minute: DAY_MS };
    expect(planQuery(params, { now, retention: shorter, covers })).toEqual(
      planQuery(params, { now, retention: shorter }),
    );
  });
});
