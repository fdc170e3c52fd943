import { describe, expect, it } from "vitest";
import { wantsFreshAnswer } from "./cacheControl";

const request = (headers: Record<string, string>) => ({
  get: (name: string) => headers[name.toLowerCase()],
});

describe("wantsFreshAnswer", () => {
  it("finds no-cache or no-store among the request's directives, in any case, or Pragma: no-cache", () => {
    for (const value of [
      "no-cache",
      "No-Store",
      "max-age=0, no-cache",
      "no-cache,max-stale",
      'no-cache="x"',
    ]) {
      expect(wantsFreshAnswer(request({ "cache-control": value }))).toBe(true);
    }
    expect(wantsFreshAnswer(request({ pragma: "no-cache" }))).toBe(true);
  });

  it("takes nothing else for it: other directives, look-alikes, nothing at all", () => {
    for (const value of [
      "",
      "max-age=0",
      "private",
      "x-no-cache",
      "no-cachex",
      "no-cache-please",
      "nono-store",
    ]) {
      expect(wantsFreshAnswer(request({ "cache-control": value }))).toBe(false);
    }
    expect(wantsFreshAnswer(request({}))).toBe(false);
  });

  it("reads a header of the largest size Node accepts without trouble", () => {
    const huge = `${", ".repeat(8_000)}no-cach`;
    expect(wantsFreshAnswer(request({ "cache-control": huge }))).toBe(false);
    expect(wantsFreshAnswer(request({ "cache-control": `${huge}e` }))).toBe(true);
  });
});
