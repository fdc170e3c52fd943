import { emptySums, type Sums } from "@vu/store";
import { describe, expect, it } from "vitest";
import { RowTableBuilder } from "./rowTable";

const sums = (count: number): Sums => ({ ...emptySums(), count, words: 2 * count });
const values = (s: Sums) =>
  Float64Array.from([s.count, s.words, s.durationMs, s.voiceMsSum, s.voiceMsCount, s.llmMsSum, s.llmMsCount]);
const buckets = [
  { label: "day1", startMs: 0 },
  { label: "day2", startMs: 1 },
];

describe("RowTable", () => {
  it("orders each bucket's rows by group rank, keeps buckets in order, and pages without copying objects", () => {
    const builder = new RowTableBuilder();
    // Groups 0 "b", 1 null, 2 "a": ranked a, b, null.
    const ranks = Int32Array.from([1, 2, 0]);
    builder.push(0, 1, values(sums(1)), 0);
    builder.push(0, 2, values(sums(2)), 0);
    builder.push(0, 0, values(sums(3)), 0);
    // Past the builder's first capacity, to see it grow.
    for (let i = 0; i < 300; i++) builder.push(1, i % 2 === 0 ? 0 : 2, values(sums(10 + i)), 0);
    const table = builder.build(buckets, [["b"], [null], ["a"]], ["app_name"], ranks);
    expect(table.length).toBe(303);
    expect(table.rows(0, 4).map((r) => [r.label, r.group?.[0], r.sums.count])).toEqual([
      ["day1", "a", 2],
      ["day1", "b", 3],
      ["day1", null, 1],
      ["day2", "a", 11],
    ]);
    expect(table.row(302)).toMatchObject({ label: "day2", startMs: 1, group: ["b"] });
    expect(table.rows(300, 9_999)).toHaveLength(3);
    const total = table.total();
    expect(total.count).toBe(6 + 300 * 10 + (299 * 300) / 2);
    expect(total.words).toBe(2 * total.count);
  });

  it("leaves rows without a group field when not grouped", () => {
    const builder = new RowTableBuilder();
    builder.push(0, 0, values(sums(4)), 0);
    const table = builder.build(buckets, [[]], [], Int32Array.from([0]));
    expect(table.rows()).toEqual([{ label: "day1", startMs: 0, sums: sums(4) }]);
  });
});
