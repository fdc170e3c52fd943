import { describe, expect, it } from "vitest";
import { formatBucket, formatInstant } from "./format";

describe("formatBucket", () => {
  it("writes quarters and years (docs/contract.md §9) as the API labels them, in their zone", () => {
    expect(formatBucket("2026-04-01T00:00:00.000+02:00", "quarter")).toBe("Q2 2026");
    expect(formatBucket("2026-10-01T00:00:00.000-02:30", "quarter")).toBe("Q4 2026");
    expect(formatBucket("2026-01-01T00:00:00.000+01:00", "year")).toBe("2026");
  });
});

describe("formatInstant", () => {
  it("writes an instant to the second in the view's zone", () => {
    expect(formatInstant("2026-11-25T23:07:49.123Z", "UTC")).toBe("25 Nov 2026, 23:07:49");
    expect(formatInstant("2026-11-25T23:07:49.123Z", "Asia/Kathmandu")).toBe("26 Nov 2026, 04:52:49");
    expect(formatInstant("2026-11-25T23:07:49.123Z", "America/St_Johns")).toBe("25 Nov 2026, 19:37:49");
  });

  it("gives null for what is not an instant", () => {
    expect(formatInstant("yesterday", "UTC")).toBeNull();
  });
});
