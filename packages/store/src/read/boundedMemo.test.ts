import { describe, expect, it } from "vitest";
import { BoundedMemo } from "./boundedMemo";

describe("BoundedMemo", () => {
  it("forgets the entry set longest ago once full, and a set again counts as new", () => {
    const memo = new BoundedMemo<number>(2);
    memo.set("a", 1);
    memo.set("b", 2);
    memo.set("a", 3);
    memo.set("c", 4);
    expect([memo.get("a"), memo.get("b"), memo.get("c")]).toEqual([3, undefined, 4]);
  });
});
