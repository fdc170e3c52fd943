import { describe, expect, it } from "vitest";
import { comboMatches, parseFilters } from "./filters";

describe("parseFilters", () => {
  it("trims items, drops empty ones and ignores a list left empty", () => {
    const filters = parseFilters({ voice_model: " a, ,b ,", app_name: " , ", member_email: "Ada@X.com" });
    expect(filters.map((f) => [f.dimension, [...f.values]])).toEqual([
      ["member_email", ["ada@x.com"]],
      ["voice_model", ["a", "b"]],
    ]);
  });

  it("reads the literal null only for language models", () => {
    expect(parseFilters({ language_model: "null,gpt" })[0]?.matchesNull).toBe(true);
    expect(parseFilters({ app_name: "null" })[0]?.matchesNull).toBe(false);
  });
});

describe("comboMatches", () => {
  const combo = ["ada@x.com", "v1", null, "Zoom"] as const;
  it("ORs the items of one filter and ANDs filters", () => {
    expect(comboMatches(combo, parseFilters({ voice_model: "v2,v1" }))).toBe(true);
    expect(comboMatches(combo, parseFilters({ voice_model: "v1", app_name: "Slack" }))).toBe(false);
    expect(comboMatches(combo, parseFilters({ language_model: "null" }))).toBe(true);
    expect(comboMatches(combo, parseFilters({ language_model: "gpt" }))).toBe(false);
    expect(comboMatches(combo, [])).toBe(true);
  });
});

describe("exclusions", () => {
  const combo = ["ada@x.com", "v1", null, "Zoom"] as const;
  it("leave out recordings whose value is an item (NOT IN), null included, ANDed with filters", () => {
    expect(comboMatches(combo, parseFilters({}, { app_name: "Slack" }))).toBe(true);
    expect(comboMatches(combo, parseFilters({}, { app_name: " Slack , Zoom" }))).toBe(false);
    expect(comboMatches(combo, parseFilters({}, { language_model: "null" }))).toBe(false);
    expect(comboMatches(combo, parseFilters({}, { member_email: "ADA@x.com" }))).toBe(false);
    expect(comboMatches(combo, parseFilters({ voice_model: "v1" }, { app_name: "Slack" }))).toBe(true);
    expect(comboMatches(combo, parseFilters({ voice_model: "v2" }, { app_name: "Slack" }))).toBe(false);
  });

  it("exclude nothing when the list is left empty, and come after the filters", () => {
    expect(parseFilters({}, { app_name: " , " })).toEqual([]);
    const parsed = parseFilters({ app_name: "Zoom" }, { voice_model: "v1" });
    expect(parsed.map((f) => [f.dimension, f.excludes])).toEqual([
      ["app_name", false],
      ["voice_model", true],
    ]);
  });
});
