import { describe, expect, it } from "vitest";
import { callGroups } from "./callGroups";

interface B {
  org: string;
  tag: string;
  n: number;
}
const batch = (org: string, n: number, tag = ""): B => ({ org, tag, n });
const group = (batches: B[], limits = { organizations: 3, recordings: 10 }) =>
  callGroups(
    batches,
    (b) => b.tag,
    (b) => b.n,
    limits,
  ).map((call) => call.map((b) => b.org));

describe("callGroups", () => {
  it("shares a call among organizations of one tag, up to the organization cap", () => {
    const batches = ["a", "b", "c", "d", "e"].map((org) => batch(org, 1));
    expect(group(batches)).toEqual([
      ["a", "b", "c"],
      ["d", "e"],
    ]);
  });

  it("never puts organizations of different tags in one call, and keeps each tag's order", () => {
    const batches = [batch("a", 1, "x"), batch("b", 1, "y"), batch("c", 1, "x")];
    expect(group(batches)).toEqual([["a", "c"], ["b"]]);
  });

  it("closes a call before the recordings cap and lets one large batch go alone", () => {
    const batches = [batch("a", 4), batch("b", 5), batch("c", 2), batch("d", 25), batch("e", 1)];
    expect(group(batches)).toEqual([["a", "b"], ["c"], ["d"], ["e"]]);
  });

  it("makes no call for no batches", () => {
    expect(group([])).toEqual([]);
  });
});
