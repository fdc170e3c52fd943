import { describe, expect, it } from "vitest";
import { OrganizationHints } from "./organizationHints";

describe("OrganizationHints' container fields", () => {
  it("bounds a key's fields by what it held when read plus a field per recording since", () => {
    const hints = new OrganizationHints(() => 0);
    expect(hints.fields("k")).toBeUndefined();
    expect(hints.fieldsAtMost(["k"], 1_800, 1)).toBe(1_800);
    hints.rememberFields("k", 129, 1_800);
    expect(hints.fields("k")).toBe(129);
    expect(hints.fieldsAtMost(["k"], 1_800, 1)).toBe(129);
    expect(hints.fieldsAtMost(["k"], 1_810, 1)).toBe(139);
    hints.clear();
    expect(hints.fields("k")).toBeUndefined();
  });

  it("bounds many keys' fields together by a field per recording and place since the oldest was read", () => {
    const hints = new OrganizationHints(() => 0);
    hints.rememberFields("h1", 4, 1_000);
    hints.rememberFields("h2", 3, 1_000);
    hints.rememberFields("h3", 2, 990);
    // 168 hours of a large organization: each recording lands in one of them, not in all.
    expect(hints.fieldsAtMost(["h1", "h2", "h3"], 1_000, 1)).toBe(9 + 10);
    expect(hints.fieldsAtMost(["h1", "h2", "h3"], 1_005, 2)).toBe(9 + 2 * 15);
    // A key never read holds at most a field per recording.
    expect(hints.fieldsAtMost(["h1", "new"], 1_000, 1)).toBe(4 + 1_000);
  });
});

describe("OrganizationHints' dimension values from the combination table", () => {
  it("remembers the mark per generation and organization until forgotten or cleared", () => {
    const hints = new OrganizationHints(() => 0);
    expect(hints.valuesFromCombos(1, "acme")).toBe(false);
    hints.rememberValuesFromCombos(1, "acme");
    expect([hints.valuesFromCombos(1, "acme"), hints.valuesFromCombos(2, "acme")]).toEqual([true, false]);
    expect(hints.valuesFromCombos(1, "globex")).toBe(false);
    hints.forgetValuesFromCombos(1, "acme");
    expect(hints.valuesFromCombos(1, "acme")).toBe(false);
    hints.rememberValuesFromCombos(1, "acme");
    hints.clear();
    expect(hints.valuesFromCombos(1, "acme")).toBe(false);
  });
});
