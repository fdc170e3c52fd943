import { describe, expect, it } from "vitest";
import { OrganizationHints } from "./organizationHints";

describe("OrganizationHints' container fields", () => {
  it("bounds a key's fields by what it held when read plus a field per recording since", () => {
    const hints = new OrganizationHints(() => 0);
    expect(hints.fields("k")).toBeUndefined();
    expect(hints.fieldsAtMost("k", 1_800)).toBe(1_800);
    hints.rememberFields("k", 129, 1_800);
    expect(hints.fields("k")).toBe(129);
    expect(hints.fieldsAtMost("k", 1_800)).toBe(129);
    expect(hints.fieldsAtMost("k", 1_810)).toBe(139);
    // Never more than the organization's recordings, nor less than was read.
    expect(hints.fieldsAtMost("k", 100)).toBe(100);
    hints.clear();
    expect(hints.fields("k")).toBeUndefined();
  });
});
