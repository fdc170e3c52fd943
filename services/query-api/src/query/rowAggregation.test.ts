import type { DimensionValues } from "@vu/events";
import { ALL_QUARTERS, type BlockSnapshot, packSums, type Sums, WHOLE_BLOCK } from "@vu/store";
import { describe, expect, it } from "vitest";
import { parseFilters } from "./filters";
import { type AggregatedBucket, aggregateRowsInTurns } from "./rowAggregation";

/** Every row of the table as an object, to compare whole. */
/** Turns never due: the aggregation runs straight through, as for a small answer. */
const NEVER = { due: () => false, pause: async () => expect.unreachable("paused") };
const aggregateRows = async (...[buckets, snapshot, options]: Parameters<typeof aggregateRowsInTurns>) =>
  (await aggregateRowsInTurns(buckets, snapshot, options, NEVER)).rows();

/** A stored cell from its seven sums written as text, "count,words,durationMs,…". */
const cell = (sums: string): Buffer => {
  const [count, words, durationMs, voiceMsSum, voiceMsCount, llmMsSum, llmMsCount] = sums
    .split(",")
    .map(Number);
  return packSums({ count, words, durationMs, voiceMsSum, voiceMsCount, llmMsSum, llmMsCount } as Sums);
};

/** A field name as the store returns it: bytes, decoded by the aggregation itself. */
const stored = (field: string): Buffer => Buffer.from(field);

const combos = new Map<string, DimensionValues>([
  ["1", ["a@x.com", "v1", "gpt", "Zoom"]],
  ["2", ["b@x.com", "v1", null, "Ärzte"]],
  ["3", ["a@x.com", "v2", "gpt", "Slack"]],
]);
const block = (startMs: number, sign: 1 | -1 = 1) => ({ tier: "hour" as const, startMs, sign });
const buckets: AggregatedBucket[] = [
  { label: "day1", startMs: 0, blocks: [block(0), block(1)] },
  { label: "day2", startMs: 10, blocks: [block(10)] },
  { label: "day3", startMs: 20, blocks: [block(20)] },
];
/** Every block read whole, unsplit (as day, week and month blocks are). */
const whole = (n: number) => new Int8Array(n).fill(WHOLE_BLOCK);
const snapshot: BlockSnapshot = {
  projection: "combos",
  extent: "unknown",
  stamp: null,
  comboCells: [],
  combos,
  parts: whole(4),
  cells: [
    [stored("1"), cell("1,10,1000,5,1,7,1"), stored("2"), cell("2,20,2000,0,0,0,0")],
    [stored("1"), cell("1,10,1000,5,1,7,1"), stored("3"), cell("4,40,4000,8,2,0,0")],
    [stored("2"), cell("1,1,1,1,1,0,0")],
    [],
  ],
};

describe("aggregateRows", () => {
  it("sums the blocks of each bucket and skips buckets without recordings", async () => {
    const rows = await aggregateRows(buckets, snapshot, { filters: [] });
    expect(rows.map((r) => [r.label, r.sums.count, r.sums.words])).toEqual([
      ["day1", 8, 80],
      ["day2", 1, 1],
    ]);
    expect(rows[0]).not.toHaveProperty("group");
  });

  it("groups by a dimension in byte order with null last, after filtering", async () => {
    const byLanguage = await aggregateRows(buckets, snapshot, { filters: [], groupBy: ["language_model"] });
    expect(byLanguage.map((r) => [r.label, r.group?.[0], r.sums.count])).toEqual([
      ["day1", "gpt", 6],
      ["day1", null, 2],
      ["day2", null, 1],
    ]);
    const filtered = await aggregateRows(buckets, snapshot, {
      filters: parseFilters({ member_email: "A@x.com" }),
      groupBy: ["app_name"],
    });
    expect(filtered.map((r) => [r.group?.[0], r.sums.count])).toEqual([
      ["Slack", 4],
      ["Zoom", 2],
    ]);
  });

  it("subtracts blocks of sign -1, and a group that nets to zero gives no row", async () => {
    const signed: BlockSnapshot = {
      projection: "combos",
      extent: "unknown",
      stamp: null,
      comboCells: [],
      combos,
      parts: whole(2),
      cells: [
        [stored("1"), cell("3,30,3000,5,1,7,1"), stored("2"), cell("2,20,2000,0,0,0,0")],
        [stored("1"), cell("1,10,1000,5,1,0,0"), stored("2"), cell("2,20,2000,0,0,0,0")],
      ],
    };
    const rows = await aggregateRows([{ label: "d", startMs: 0, blocks: [block(0), block(1, -1)] }], signed, {
      filters: [],
      groupBy: ["app_name"],
    });
    expect(rows.map((r) => [r.group?.[0], r.sums])).toEqual([
      [
        "Zoom",
        { count: 2, words: 20, durationMs: 2000, voiceMsSum: 0, voiceMsCount: 0, llmMsSum: 7, llmMsCount: 1 },
      ],
    ]);
  });

  it("refuses a cell whose combination is unknown rather than dropping it", async () => {
    const broken: BlockSnapshot = {
      projection: "combos",
      extent: "unknown",
      stamp: null,
      comboCells: [],
      combos,
      parts: whole(1),
      cells: [[stored("9"), cell("1,1,1,1,1,1,1")]],
    };
    await expect(
      aggregateRows([{ label: "x", startMs: 0, blocks: [block(0)] }], broken, { filters: [] }),
    ).rejects.toThrow(/unknown combination 9/);
  });

  it("sums a block's container cells (combinations) with its own key's cells in the asked view", async () => {
    // day1's first block has cells in both places (its tier turned dense in between); day2's only in the container.
    const mixed: BlockSnapshot = {
      projection: "app_name",
      extent: "unknown",
      stamp: null,
      combos,
      parts: whole(4),
      cells: [[stored("Zoom"), cell("2,20,2000,0,0,0,0")], [], [], []],
      comboCells: [
        [stored("1"), cell("1,10,1000,5,1,7,1"), stored("3"), cell("4,40,4000,8,2,0,0")],
        [],
        [stored("2"), cell("1,1,1,1,1,0,0")],
        [],
      ],
    };
    const rows = await aggregateRows(buckets, mixed, { filters: [], groupBy: ["app_name"] });
    expect(rows.map((r) => [r.label, r.group?.[0], r.sums.count, r.sums.words])).toEqual([
      ["day1", "Slack", 4, 40],
      ["day1", "Zoom", 3, 30],
      ["day2", "Ärzte", 1, 1],
    ]);
    const filtered = await aggregateRows(buckets, mixed, { filters: parseFilters({ app_name: "Zoom" }) });
    expect(filtered.map((r) => [r.label, r.sums.count])).toEqual([["day1", 3]]);
  });

  it("answers from a projection: filtered and grouped on its own dimension, null as the empty field", async () => {
    const projection: BlockSnapshot = {
      projection: "language_model",
      extent: "unknown",
      stamp: null,
      comboCells: [],
      combos: new Map(),
      parts: whole(4),
      cells: [[stored("gpt"), cell("2,20,2000,0,0,0,0"), stored(""), cell("1,1,1,1,1,0,0")], [], [], []],
    };
    const rows = await aggregateRows(buckets, projection, {
      filters: parseFilters({ language_model: "null" }),
      groupBy: ["language_model"],
    });
    expect(rows.map((r) => [r.label, r.group?.[0], r.sums.count])).toEqual([["day1", null, 1]]);
    await expect(aggregateRows(buckets, projection, { filters: [], groupBy: ["app_name"] })).rejects.toThrow(
      /cannot answer/,
    );
  });

  it("reads a split hour's quarters from one key, merging the bucket's signs per quarter", async () => {
    // One hour key, fields led by their quarter's digit: quarter 0 has combination 1 twice over,
    // quarter 2 has combination 2, quarter 3 combination 3.
    const hour = [
      stored("01"),
      cell("2,20,2000,0,0,0,0"),
      stored("22"),
      cell("1,10,1000,0,0,0,0"),
      stored("33"),
      cell("4,40,4000,0,0,0,0"),
    ];
    const quarter = (startMs: number, sign: 1 | -1 = 1) => ({ tier: "quarter" as const, startMs, sign });
    const split: BlockSnapshot = {
      projection: "combos",
      extent: "unknown",
      stamp: null,
      comboCells: [],
      combos,
      // The same array for every reference to the key, as the reader returns it.
      cells: [hour, hour, hour, hour],
      parts: Int8Array.from([2, 3, ALL_QUARTERS, 3]),
    };
    const rows = await aggregateRows(
      [
        // Quarters 2 and 3: combinations 2 and 3.
        { label: "half", startMs: 0, blocks: [quarter(0), quarter(1)] },
        // The whole hour minus quarter 3: combinations 1 and 2.
        { label: "rest", startMs: 1, blocks: [{ ...quarter(2), tier: "hour" }, quarter(3, -1)] },
      ],
      split,
      { filters: [], groupBy: ["app_name"] },
    );
    expect(rows.map((r) => [r.label, r.group?.[0], r.sums.count])).toEqual([
      ["half", "Slack", 4],
      ["half", "Ärzte", 1],
      ["rest", "Zoom", 2],
      ["rest", "Ärzte", 1],
    ]);
  });

  it("does not confuse a whole block's field with a split hour's field of the same text", async () => {
    // "12": combination 12 in the day block, combination 2 in quarter 1 of the hour.
    const many = new Map<string, DimensionValues>([...combos, ["12", ["c@x.com", "v3", "gpt", "Teams"]]]);
    const snapshot: BlockSnapshot = {
      projection: "combos",
      extent: "unknown",
      stamp: null,
      comboCells: [],
      combos: many,
      cells: [
        [stored("12"), cell("1,1,1,0,0,0,0")],
        [stored("12"), cell("5,5,5,0,0,0,0")],
      ],
      parts: Int8Array.from([WHOLE_BLOCK, ALL_QUARTERS]),
    };
    const rows = await aggregateRows(
      [{ label: "d", startMs: 0, blocks: [{ tier: "day", startMs: 0, sign: 1 }, block(0)] }],
      snapshot,
      { filters: [], groupBy: ["app_name"] },
    );
    expect(rows.map((r) => [r.group?.[0], r.sums.count])).toEqual([
      ["Teams", 1],
      ["Ärzte", 5],
    ]);
  });

  it("refuses a split hour field without its quarter digit rather than dropping its cell", async () => {
    const broken: BlockSnapshot = {
      projection: "total",
      extent: "unknown",
      stamp: null,
      comboCells: [],
      combos: new Map(),
      cells: [[stored("*"), cell("1,1,1,1,1,1,1")]],
      parts: Int8Array.from([ALL_QUARTERS]),
    };
    await expect(
      aggregateRows([{ label: "x", startMs: 0, blocks: [block(0)] }], broken, { filters: [] }),
    ).rejects.toThrow(/no quarter digit/);
  });
});

describe("aggregateRowsInTurns", () => {
  it("answers as when it never pauses, pausing between steps whenever its turn is due", async () => {
    let pauses = 0;
    const always = {
      due: () => true,
      pause: async () => {
        pauses++;
      },
    };
    const options = { filters: [], groupBy: ["app_name" as const] };
    const inTurns = await aggregateRowsInTurns(buckets, snapshot, options, always);
    expect(inTurns.rows()).toEqual(await aggregateRows(buckets, snapshot, options));
    // A pause after each block's cells: three blocks hold cells (the fourth is empty).
    expect(pauses).toBe(3);
  });

  it("cuts a key of many cells into steps, so a pause comes inside one block too", async () => {
    const many = Array.from({ length: 20_000 }, (_, i) => [
      stored(String((i % 3) + 1)),
      cell("1,1,1,0,0,0,0"),
    ]).flat();
    const big: BlockSnapshot = { ...snapshot, parts: whole(1), cells: [many] };
    const one = [{ label: "all", startMs: 0, blocks: [block(0)] }];
    let pauses = 0;
    const table = await aggregateRowsInTurns(
      one,
      big,
      { filters: [] },
      {
        due: () => true,
        pause: async () => {
          pauses++;
        },
      },
    );
    expect(table.rows().map((r) => r.sums.count)).toEqual([20_000]);
    expect(pauses).toBe(3);
  });
});
