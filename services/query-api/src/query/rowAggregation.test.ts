import { type BlockSnapshot, type ComboValues, packSums, type Sums } from "@vu/store";
import { describe, expect, it } from "vitest";
import { parseFilters } from "./filters";
import { aggregateRows, type PlannedBucket } from "./rowAggregation";

/** A stored cell from its seven sums written as text, "count,words,durationMs,…". */
const cell = (sums: string): Buffer => {
  const [count, words, durationMs, voiceMsSum, voiceMsCount, llmMsSum, llmMsCount] = sums
    .split(",")
    .map(Number);
  return packSums({ count, words, durationMs, voiceMsSum, voiceMsCount, llmMsSum, llmMsCount } as Sums);
};

const combos = new Map<string, ComboValues>([
  ["1", ["a@x.com", "v1", "gpt", "Zoom"]],
  ["2", ["b@x.com", "v1", null, "Ärzte"]],
  ["3", ["a@x.com", "v2", "gpt", "Slack"]],
]);
const block = (startMs: number, sign: 1 | -1 = 1) => ({ tier: "hour" as const, startMs, sign });
const buckets: PlannedBucket[] = [
  { label: "day1", startMs: 0, blocks: [block(0), block(1)] },
  { label: "day2", startMs: 10, blocks: [block(10)] },
  { label: "day3", startMs: 20, blocks: [block(20)] },
];
const snapshot: BlockSnapshot = {
  view: "combos",
  extent: "unknown",
  combos,
  cells: [
    ["1", cell("1,10,1000,5,1,7,1"), "2", cell("2,20,2000,0,0,0,0")],
    ["1", cell("1,10,1000,5,1,7,1"), "3", cell("4,40,4000,8,2,0,0")],
    ["2", cell("1,1,1,1,1,0,0")],
    [],
  ],
};

describe("aggregateRows", () => {
  it("sums the blocks of each bucket and skips buckets without recordings", () => {
    const rows = aggregateRows(buckets, snapshot, { filters: [] });
    expect(rows.map((r) => [r.label, r.sums.count, r.sums.words])).toEqual([
      ["day1", 8, 80],
      ["day2", 1, 1],
    ]);
    expect(rows[0]).not.toHaveProperty("group");
  });

  it("groups by a dimension in byte order with null last, after filtering", () => {
    const byLanguage = aggregateRows(buckets, snapshot, { filters: [], groupBy: "language_model" });
    expect(byLanguage.map((r) => [r.label, r.group, r.sums.count])).toEqual([
      ["day1", "gpt", 6],
      ["day1", null, 2],
      ["day2", null, 1],
    ]);
    const filtered = aggregateRows(buckets, snapshot, {
      filters: parseFilters({ member_email: "A@x.com" }),
      groupBy: "app_name",
    });
    expect(filtered.map((r) => [r.group, r.sums.count])).toEqual([
      ["Slack", 4],
      ["Zoom", 2],
    ]);
  });

  it("subtracts blocks of sign -1, and a group that nets to zero gives no row", () => {
    const signed: BlockSnapshot = {
      view: "combos",
      extent: "unknown",
      combos,
      cells: [
        ["1", cell("3,30,3000,5,1,7,1"), "2", cell("2,20,2000,0,0,0,0")],
        ["1", cell("1,10,1000,5,1,0,0"), "2", cell("2,20,2000,0,0,0,0")],
      ],
    };
    const rows = aggregateRows([{ label: "d", startMs: 0, blocks: [block(0), block(1, -1)] }], signed, {
      filters: [],
      groupBy: "app_name",
    });
    expect(rows.map((r) => [r.group, r.sums])).toEqual([
      [
        "Zoom",
        { count: 2, words: 20, durationMs: 2000, voiceMsSum: 0, voiceMsCount: 0, llmMsSum: 7, llmMsCount: 1 },
      ],
    ]);
  });

  it("refuses a cell whose combination is unknown rather than dropping it", () => {
    const broken: BlockSnapshot = {
      view: "combos",
      extent: "unknown",
      combos,
      cells: [["9", cell("1,1,1,1,1,1,1")]],
    };
    expect(() =>
      aggregateRows([{ label: "x", startMs: 0, blocks: [block(0)] }], broken, { filters: [] }),
    ).toThrow(/unknown combination 9/);
  });

  it("answers from a projection: filtered and grouped on its own dimension, null as the empty field", () => {
    const projection: BlockSnapshot = {
      view: "language_model",
      extent: "unknown",
      combos: new Map(),
      cells: [["gpt", cell("2,20,2000,0,0,0,0"), "", cell("1,1,1,1,1,0,0")], [], [], []],
    };
    const rows = aggregateRows(buckets, projection, {
      filters: parseFilters({ language_model: "null" }),
      groupBy: "language_model",
    });
    expect(rows.map((r) => [r.label, r.group, r.sums.count])).toEqual([["day1", null, 1]]);
    expect(() => aggregateRows(buckets, projection, { filters: [], groupBy: "app_name" })).toThrow(
      /cannot answer/,
    );
  });
});
