import { describe, expect, it } from "vitest";
import { RowMembersBuilder, unionOf } from "./rowMembers";

describe("RowMembers", () => {
  it("keeps each row's members, reorders them with the rows, and counts them once compacted", () => {
    const builder = new RowMembersBuilder(true);
    // Past the first capacities, to see them grow.
    for (let row = 0; row < 300; row++) builder.push([row, row + 1, row + 2], row % 5);
    builder.push([], 9);
    const order = Int32Array.from({ length: 301 }, (_, i) => 300 - i);
    const members = builder.buildInOrder(order);
    expect([members.count(0), [...members.of(1)], members.previousCounts?.[1]]).toEqual([
      0,
      [299, 300, 301],
      4,
    ]);
    const compacted = members.compacted();
    expect([compacted.count(0), compacted.count(300)]).toEqual([0, 3]);
    expect(() => compacted.of(1)).toThrow(/dropped/);
    expect(members.distinct()).toBe(302);
  });

  it("unites rows' members, each once", () => {
    expect([...unionOf([[1, 2], undefined, [2, 3], []])].sort()).toEqual([1, 2, 3]);
  });
});
