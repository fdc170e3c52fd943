import { describe, expect, it } from "vitest";
import { DimensionLists } from "./dimensionLists";

const lists = new DimensionLists({
  member_email: ["ada@example.com", "anna@example.com", "bob@example.com", "hanna@example.org"],
  voice_model: [],
  language_model: ["gpt"],
  app_name: ["Slack", "ZOOM", "Zoom", "zoomer", "Ärzte-App"],
});

describe("DimensionLists", () => {
  it("selects every value without q or limit, as the same list", () => {
    expect(lists.select("app_name", {})).toEqual(["Slack", "ZOOM", "Zoom", "zoomer", "Ärzte-App"]);
    expect(lists.select("app_name", { q: "" })).toHaveLength(5);
    expect(lists.select("voice_model", { q: "x", limit: 3 })).toEqual([]);
  });

  it("keeps values containing q, ignoring case on both sides, in order", () => {
    expect(lists.select("app_name", { q: "zoom" })).toEqual(["ZOOM", "Zoom", "zoomer"]);
    expect(lists.select("app_name", { q: "OoM" })).toEqual(["ZOOM", "Zoom", "zoomer"]);
    expect(lists.select("app_name", { q: "ärz" })).toEqual(["Ärzte-App"]);
    expect(lists.select("member_email", { q: "nna@" })).toEqual(["anna@example.com", "hanna@example.org"]);
    // Plain text, not a pattern.
    expect(lists.select("member_email", { q: ".*" })).toEqual([]);
  });

  it("stops at limit, the first values in order", () => {
    expect(lists.select("app_name", { limit: 2 })).toEqual(["Slack", "ZOOM"]);
    expect(lists.select("app_name", { q: "zoom", limit: 2 })).toEqual(["ZOOM", "Zoom"]);
    expect(lists.select("app_name", { limit: 99 })).toHaveLength(5);
  });

  it("counts every value it holds", () => {
    expect(lists.size).toBe(10);
  });
});
