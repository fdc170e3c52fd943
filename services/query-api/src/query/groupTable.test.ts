import { describe, expect, it } from "vitest";
import { compareGroupValues, GroupTable } from "./groupTable";

describe("GroupTable", () => {
  it("numbers groups by their values as a whole, null apart from the text null", () => {
    const groups = new GroupTable();
    expect(groups.indexOf(["a", null])).toBe(0);
    expect(groups.indexOf(["a", "null"])).toBe(1);
    expect(groups.indexOf(["a", null])).toBe(0);
    expect(groups.indexOf([null])).toBe(2);
    expect(groups.indexOf(["null"])).toBe(3);
  });

  it("ranks by the first dimension asked, then the next, each in byte order with null last", () => {
    const groups = new GroupTable();
    for (const values of [
      ["b", "x"],
      [null, "a"],
      ["a", null],
      ["a", "y"],
      ["Ä", "a"],
    ])
      groups.indexOf(values);
    const order = [...groups.ranks()]
      .map((rank, i) => [rank, groups.values[i]])
      .sort(([a], [b]) => Number(a) - Number(b));
    expect(order.map(([, v]) => v)).toEqual([
      ["a", "y"],
      ["a", null],
      ["b", "x"],
      ["Ä", "a"],
      [null, "a"],
    ]);
    expect(compareGroupValues(["a"], ["a"])).toBe(0);
  });
});
