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
