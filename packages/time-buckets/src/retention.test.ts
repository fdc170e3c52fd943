import { describe, expect, it } from "vitest";
import {
  blockExpiresAt,
  DEFAULT_RETENTION,
  EXPIRY_GRACE_MS,
  isBlockKept,
  retentionProblems,
  withQuarters,
} from "./retention";
import { DAY_MS } from "./tiers";

const now = Date.parse("2026-11-22T12:00:00Z");

describe("isBlockKept", () => {
  it("keeps minute blocks for 35 days and day blocks forever by default", () => {
    expect(isBlockKept(DEFAULT_RETENTION, "minute", now - 35 * DAY_MS, now)).toBe(true);
    expect(isBlockKept(DEFAULT_RETENTION, "minute", now - 35 * DAY_MS - 1, now)).toBe(false);
    expect(isBlockKept(DEFAULT_RETENTION, "day", 0, now)).toBe(true);
  });

  it("never lets a kept block expire: expiry lies beyond the last instant it counts as kept", () => {
    const start = now - 35 * DAY_MS;
    const expiry = blockExpiresAt(DEFAULT_RETENTION, "minute", start);
    expect(expiry).toBe(start + 35 * DAY_MS + EXPIRY_GRACE_MS);
    expect(blockExpiresAt(DEFAULT_RETENTION, "month", start)).toBeNull();
  });
});

describe("retentionProblems", () => {
  it("accepts the defaults and rejects a coarser tier kept shorter than a finer one", () => {
    expect(retentionProblems(DEFAULT_RETENTION)).toEqual([]);
    expect(retentionProblems(withQuarters({ ...DEFAULT_RETENTION, hour: DAY_MS }))).toEqual([
      "hour data must be kept at least as long as minute data",
    ]);
    expect(retentionProblems({ ...DEFAULT_RETENTION, month: DAY_MS })).toEqual([
      "month data must be kept at least as long as day data",
    ]);
  });

  it("keeps quarter hours exactly as long as hours, since they are stored inside the hour blocks", () => {
    expect(withQuarters({ ...DEFAULT_RETENTION, hour: 90 * DAY_MS }).quarter).toBe(90 * DAY_MS);
    expect(retentionProblems({ ...DEFAULT_RETENTION, quarter: 35 * DAY_MS })).toEqual([
      "quarter hours are kept exactly as long as hours",
    ]);
  });
});
