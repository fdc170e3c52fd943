import { describe, expect, it } from "vitest";
import { formatInstant } from "./format";

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
