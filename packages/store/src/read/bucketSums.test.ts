import type { Dimension, DimensionValues } from "@vu/events";
import { describe, expect, it } from "vitest";
import { ALL_QUARTERS, WHOLE_BLOCK } from "../format/quarterCells";
import { SKETCH_PAIR_BYTES, sketchKey, sketchPairs } from "../format/sketches";
import { packSums, SUM_FIELDS, type Sums } from "../format/sums";
import { type SnapshotCells, sumBuckets } from "./bucketSums";
import type { DimensionTest, SummedBucket, SumsQuestion } from "./sumsQuestion";

/** A stored cell from its seven sums written as text, "count,words,durationMs,…". */
const cell = (sums: string): Buffer => {
  const [count, words, durationMs, voiceMsSum, voiceMsCount, llmMsSum, llmMsCount] = sums
    .split(",")
    .map(Number);
  return packSums({ count, words, durationMs, voiceMsSum, voiceMsCount, llmMsSum, llmMsCount } as Sums);
};
/** A field name as a reply holds it: bytes, decoded by the summing itself. */
const stored = (field: string): Buffer => Buffer.from(field);
/** A block's cells from `[field, count]` pairs (words and duration equal to the count). */
const cellsOf = (...cells: Array<[string, number]>) =>
  cells.flatMap(([f, n]) => [stored(f), cell(`${n},${n},${n},0,0,0,0`)]);

/** A filter passing the values listed (null: no language model), or with `except` all others. */
const only = (dimension: Dimension, ...values: Array<string | null>): DimensionTest => ({
  dimension,
  passes: (value) => values.includes(value),
});
const except = (dimension: Dimension, ...values: Array<string | null>): DimensionTest => ({
  dimension,
  passes: (value) => !values.includes(value),
});

interface Summed {
  bucket: number;
  group: ReadonlyArray<string | null>;
  sums: Sums;
  /** With activeMembers: how many members the (bucket, group) has. */
  members?: number;
}

/**
 * Runs a question to its end: each (bucket, group) handed over, with its group's values (groups
 * numbered as first named), plus how many steps it took and the distinct members seen.
 */
function summed(
  snapshot: SnapshotCells,
  buckets: readonly SummedBucket[],
  question: Partial<Omit<SumsQuestion, "buckets" | "groupOf">> = {},
) {
  const groups: Array<ReadonlyArray<string | null>> = [];
  const numbers = new Map<string, number>();
  const groupOf = (values: ReadonlyArray<string | null>) => {
    const key = JSON.stringify(values);
    let n = numbers.get(key);
    if (n === undefined) {
      n = groups.length;
      groups.push(values);
      numbers.set(key, n);
    }
    return n;
  };
  const rows: Summed[] = [];
  const everyMember = new Set<number>();
  const steps = sumBuckets(
    snapshot,
    { firstBlock: 0, filters: [], groupBy: [], activeMembers: false, ...question, buckets, groupOf },
    {
      push(bucket, group, values, at, extras) {
        const sums = Object.fromEntries(SUM_FIELDS.map((f, k) => [f, values[at + k]])) as Sums;
        const row: Summed = { bucket, group: groups[group] ?? [], sums };
        if (extras?.members) {
          row.members = new Set(Array.from(extras.members)).size;
          expect(row.members).toBe(extras.members.length);
          for (const id of Array.from(extras.members)) everyMember.add(id);
        }
        rows.push(row);
      },
    },
  );
  let count = 0;
  while (!steps.next().done) count++;
  return { rows, steps: count, members: everyMember.size };
}

/** Each (bucket, group) as [bucket, group values…, count] (with members: and their number). */
const shown = (result: { rows: Summed[] }) =>
  result.rows.map((r) => [
    r.bucket,
    ...r.group,
    r.sums.count,
    ...(r.members === undefined ? [] : [r.members]),
  ]);

const combos = new Map<string, DimensionValues>([
  ["1", ["a@x.com", "v1", "gpt", "Zoom"]],
  ["2", ["b@x.com", "v1", null, "Ärzte"]],
  ["3", ["a@x.com", "v2", "gpt", "Slack"]],
]);
const block = (sign: 1 | -1 = 1) => ({ sign });
const buckets: SummedBucket[] = [
  { blocks: [block(), block()] },
  { blocks: [block()] },
  { blocks: [block()] },
];
/** Every block read whole, unsplit (as day, week and month blocks are). */
const whole = (n: number) => new Int8Array(n).fill(WHOLE_BLOCK);
const snapshot: SnapshotCells = {
  projection: "combos",
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

describe("sumBuckets", () => {
  it("sums the blocks of each bucket and hands over no bucket without recordings", () => {
    const { rows } = summed(snapshot, buckets);
    expect(rows).toEqual([
      {
        bucket: 0,
        group: [],
        sums: {
          count: 8,
          words: 80,
          durationMs: 8000,
          voiceMsSum: 18,
          voiceMsCount: 4,
          llmMsSum: 14,
          llmMsCount: 2,
        },
      },
      {
        bucket: 1,
        group: [],
        sums: {
          count: 1,
          words: 1,
          durationMs: 1,
          voiceMsSum: 1,
          voiceMsCount: 1,
          llmMsSum: 0,
          llmMsCount: 0,
        },
      },
    ]);
  });

  it("groups by the values of the dimensions asked, after filtering, in the order groups are first met", () => {
    expect(shown(summed(snapshot, buckets, { groupBy: ["language_model"] }))).toEqual([
      [0, "gpt", 6],
      [0, null, 2],
      [1, null, 1],
    ]);
    const filtered = summed(snapshot, buckets, {
      filters: [only("member_email", "a@x.com")],
      groupBy: ["app_name"],
    });
    expect(shown(filtered)).toEqual([
      [0, "Zoom", 2],
      [0, "Slack", 4],
    ]);
    const two = summed(snapshot, buckets, { groupBy: ["app_name", "voice_model"] });
    expect(shown(two)).toEqual([
      [0, "Zoom", "v1", 2],
      [0, "Ärzte", "v1", 2],
      [0, "Slack", "v2", 4],
      [1, "Ärzte", "v1", 1],
    ]);
  });

  it("names the ungrouped group first, whether or not the question groups", () => {
    const named: Array<ReadonlyArray<string | null>> = [];
    const steps = sumBuckets(
      snapshot,
      {
        buckets,
        firstBlock: 0,
        filters: [],
        groupBy: ["app_name"],
        activeMembers: false,
        groupOf: (values) => named.push(values) - 1,
      },
      { push: () => undefined },
    );
    while (!steps.next().done);
    expect(named[0]).toEqual([]);
  });

  it("subtracts blocks of sign -1, and a group that nets to zero is not handed over", () => {
    const signed: SnapshotCells = {
      ...snapshot,
      parts: whole(2),
      cells: [
        [stored("1"), cell("3,30,3000,5,1,7,1"), stored("2"), cell("2,20,2000,0,0,0,0")],
        [stored("1"), cell("1,10,1000,5,1,0,0"), stored("2"), cell("2,20,2000,0,0,0,0")],
      ],
    };
    const { rows } = summed(signed, [{ blocks: [block(), block(-1)] }], { groupBy: ["app_name"] });
    expect(rows.map((r) => [r.group[0], r.sums])).toEqual([
      [
        "Zoom",
        { count: 2, words: 20, durationMs: 2000, voiceMsSum: 0, voiceMsCount: 0, llmMsSum: 7, llmMsCount: 1 },
      ],
    ]);
  });

  it("starts at firstBlock: a read may hold two plans' blocks", () => {
    expect(shown(summed(snapshot, [{ blocks: [block()] }], { firstBlock: 2 }))).toEqual([[0, 1]]);
  });

  it("refuses a cell whose combination is unknown rather than dropping it", () => {
    const broken: SnapshotCells = {
      ...snapshot,
      parts: whole(1),
      cells: [[stored("9"), cell("1,1,1,1,1,1,1")]],
    };
    expect(() => summed(broken, [{ blocks: [block()] }])).toThrow(/unknown combination 9/);
  });

  it("refuses a field that is not a combination id", () => {
    const broken: SnapshotCells = {
      ...snapshot,
      parts: whole(1),
      cells: [[stored("1x"), cell("1,1,1,1,1,1,1")]],
    };
    expect(() => summed(broken, [{ blocks: [block()] }])).toThrow(/is not a combination id/);
  });

  it("sums a block's combination cells (containers) with its own key's cells in the projection read", () => {
    // The first block has cells in both places (its tier turned dense in between); the third only in the container.
    const mixed: SnapshotCells = {
      projection: "app_name",
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
    expect(shown(summed(mixed, buckets, { groupBy: ["app_name"] }))).toEqual([
      [0, "Zoom", 3],
      [0, "Slack", 4],
      [1, "Ärzte", 1],
    ]);
    expect(shown(summed(mixed, buckets, { filters: [only("app_name", "Zoom")] }))).toEqual([[0, 3]]);
  });

  it("answers from a projection: filtered and grouped on its own dimension, null as the empty field", () => {
    const projection: SnapshotCells = {
      projection: "language_model",
      comboCells: [],
      combos: new Map(),
      parts: whole(4),
      cells: [[stored("gpt"), cell("2,20,2000,0,0,0,0"), stored(""), cell("1,1,1,1,1,0,0")], [], [], []],
    };
    const nulls = summed(projection, buckets, {
      filters: [only("language_model", null)],
      groupBy: ["language_model"],
    });
    expect(shown(nulls)).toEqual([[0, null, 1]]);
    expect(() => summed(projection, buckets, { groupBy: ["app_name"] })).toThrow(/cannot answer/);
    expect(() => summed(projection, buckets, { filters: [only("app_name", "Zoom")] })).toThrow(
      /cannot answer/,
    );
  });

  it("reads a split hour's quarters from one key, merging the bucket's signs per quarter", () => {
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
    const split: SnapshotCells = {
      ...snapshot,
      // The same array for every reference to the key, as the reader returns it.
      cells: [hour, hour, hour, hour],
      parts: Int8Array.from([2, 3, ALL_QUARTERS, 3]),
    };
    const rows = summed(
      split,
      [
        // Quarters 2 and 3: combinations 2 and 3.
        { blocks: [block(), block()] },
        // The whole hour minus quarter 3: combinations 1 and 2.
        { blocks: [block(), block(-1)] },
      ],
      { groupBy: ["app_name"] },
    );
    expect(shown(rows)).toEqual([
      [0, "Ärzte", 1],
      [0, "Slack", 4],
      [1, "Zoom", 2],
      [1, "Ärzte", 1],
    ]);
  });

  it("does not confuse a whole block's field with a split hour's field of the same text", () => {
    // "12": combination 12 in the day block, combination 2 in quarter 1 of the hour.
    const many = new Map<string, DimensionValues>([...combos, ["12", ["c@x.com", "v3", "gpt", "Teams"]]]);
    const mixed: SnapshotCells = {
      ...snapshot,
      combos: many,
      cells: [
        [stored("12"), cell("1,1,1,0,0,0,0")],
        [stored("12"), cell("5,5,5,0,0,0,0")],
      ],
      parts: Int8Array.from([WHOLE_BLOCK, ALL_QUARTERS]),
    };
    expect(shown(summed(mixed, [{ blocks: [block(), block()] }], { groupBy: ["app_name"] }))).toEqual([
      [0, "Teams", 1],
      [0, "Ärzte", 5],
    ]);
  });

  it("refuses a split hour field without its quarter digit rather than dropping its cell", () => {
    const broken: SnapshotCells = {
      projection: "total",
      comboCells: [],
      combos: new Map(),
      cells: [[stored("*"), cell("1,1,1,1,1,1,1")]],
      parts: Int8Array.from([ALL_QUARTERS]),
    };
    expect(() => summed(broken, [{ blocks: [block()] }])).toThrow(/no quarter digit/);
  });

  it("steps after each key's cells, and within a key of many cells", () => {
    // Three blocks hold cells (the fourth is empty).
    expect(summed(snapshot, buckets).steps).toBe(3);
    const many = Array.from({ length: 20_000 }, (_, i) => [
      stored(String((i % 3) + 1)),
      cell("1,1,1,0,0,0,0"),
    ]).flat();
    const big = summed({ ...snapshot, parts: whole(1), cells: [many] }, [{ blocks: [block()] }]);
    expect(shown(big)).toEqual([[0, 20_000]]);
    expect(big.steps).toBe(3);
  });
});

// docs/contract.md §9 `include=active_members`: each (bucket, group)'s distinct members, counted
// from the cells kept per combination (or per member), through signed covers, filters and groups.
describe("sumBuckets counting members", () => {
  const people = new Map<string, DimensionValues>([
    ["1", ["ada@x.com", "v1", "gpt", "Zoom"]],
    ["2", ["bob@x.com", "v1", null, "Zoom"]],
    ["3", ["ada@x.com", "v2", "gpt", "Slack"]],
    ["4", ["cy@x.com", "v2", null, "Slack"]],
    ["5", ["bob@x.com", "v2", "gpt", "Teams"]],
  ]);
  const snapshotOf = (
    cells: Buffer[][],
    projection: SnapshotCells["projection"] = "combos",
  ): SnapshotCells => ({
    projection,
    comboCells: [],
    combos: people,
    parts: whole(cells.length),
    cells,
  });
  const twoDays = snapshotOf([
    cellsOf(["1", 2], ["3", 1], ["2", 1]),
    cellsOf(["4", 1], ["5", 3]),
    cellsOf(["1", 1]),
  ]);
  const days: SummedBucket[] = [{ blocks: [block(), block()] }, { blocks: [block()] }];
  const members = { activeMembers: true };

  it("counts a member once however many of its combinations a group holds", () => {
    const result = summed(twoDays, days, members);
    // Day 0: ada (1, 3), bob (2, 5), cy (4).
    expect(shown(result)).toEqual([
      [0, 8, 3],
      [1, 1, 1],
    ]);
    expect(result.members).toBe(3);
  });

  it("counts per group and after filters and exclusions", () => {
    expect(shown(summed(twoDays, days, { ...members, groupBy: ["app_name"] }))).toEqual([
      [0, "Zoom", 3, 2],
      [0, "Slack", 2, 2],
      [0, "Teams", 3, 1],
      [1, "Zoom", 1, 1],
    ]);
    const filters = [only("voice_model", "v2"), except("member_email", "cy@x.com")];
    expect(shown(summed(twoDays, days, { ...members, filters, groupBy: ["app_name"] }))).toEqual([
      [0, "Slack", 1, 1],
      [0, "Teams", 3, 1],
    ]);
  });

  it("leaves the sums as they are without members", () => {
    const question = { groupBy: ["voice_model", "app_name"] as Dimension[] };
    const plain = summed(twoDays, days, question).rows;
    const withMembers = summed(twoDays, days, { ...question, ...members }).rows;
    expect(withMembers.map(({ members, ...row }) => row)).toEqual(plain);
    expect(plain.every((row) => row.members === undefined)).toBe(true);
  });

  it("does not count a member whose cells cancel in a signed cover", () => {
    // The bucket is the day block minus an hour: bob's only recording lies in that hour.
    const signed = snapshotOf([cellsOf(["1", 2], ["2", 1]), cellsOf(["2", 1])]);
    expect(shown(summed(signed, [{ blocks: [block(), block(-1)] }], members))).toEqual([[0, 2, 1]]);
  });

  it("counts from the members' projection, its field being the member, and from container cells", () => {
    const projection: SnapshotCells = {
      ...snapshotOf([cellsOf(["ada@x.com", 2], ["bob@x.com", 1]), []], "member_email"),
      // The second block's cells are kept without projections: combinations, one of them ada's again.
      comboCells: [[], cellsOf(["3", 1], ["4", 1])],
    };
    const filters = [except("member_email", "bob@x.com")];
    expect(shown(summed(projection, [{ blocks: [block(), block()] }], { ...members, filters }))).toEqual([
      [0, 4, 2],
    ]);
  });

  it("counts within a split hour's quarters", () => {
    const hour = cellsOf(["01", 1], ["12", 1], ["25", 1]);
    const split: SnapshotCells = { ...snapshotOf([hour, hour]), parts: Int8Array.from([ALL_QUARTERS, 2]) };
    // Quarter 2 (bob's Teams) taken off: ada (quarter 0) and bob (quarter 1, combination 2).
    expect(shown(summed(split, [{ blocks: [block(), block(-1)] }], members))).toEqual([[0, 2, 2]]);
  });

  it("refuses a projection whose cells do not name their member", () => {
    const byApp = snapshotOf([cellsOf(["Zoom", 1])], "app_name");
    expect(() => summed(byApp, [{ blocks: [block()] }], { ...members, groupBy: ["app_name"] })).toThrow(
      /cannot count members/,
    );
  });

  it("matches a brute-force count over random cells, groups, filters and covers", () => {
    // A 32-bit LCG in integer arithmetic (a product in doubles would lose its low bits, and the
    // "random" cells with them), taking its high bits.
    let state = 7;
    const random = (n: number) => {
      state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
      return (state >>> 16) % n;
    };
    let compared = 0;
    const many = new Map<string, DimensionValues>();
    for (let id = 1; id <= 40; id++)
      many.set(String(id), [
        `m${random(9)}@x.com`,
        `v${random(3)}`,
        random(3) === 0 ? null : "gpt",
        `app${random(4)}`,
      ]);
    for (let round = 0; round < 50; round++) {
      // Blocks of random cells; each bucket adds some and adds then subtracts another (a cover).
      const cells = Array.from({ length: 6 }, () =>
        cellsOf(
          ...Array.from({ length: random(8) }, (): [string, number] => [
            String(1 + random(40)),
            1 + random(3),
          ]),
        ),
      );
      const covers: SummedBucket[] = [0, 1].map(() => ({ blocks: [block(), block(), block(), block(-1)] }));
      // Each bucket reads three blocks, then its third again, subtracted.
      const read = { ...snapshotOf([0, 1, 2, 2, 3, 4, 5, 5].map((i) => cells[i] ?? [])), combos: many };
      const excluded = random(2) === 0 ? undefined : `app${random(4)}`;
      const filters = excluded === undefined ? [] : [except("app_name", excluded)];
      const result = summed(read, covers, { filters, groupBy: ["voice_model"], activeMembers: true });
      const expected = new Map<string, Set<string>>();
      covers.forEach((_, b) => {
        for (const i of [3 * b, 3 * b + 1]) {
          const blockCells = cells[i] ?? [];
          for (let c = 0; c < blockCells.length; c += 2) {
            const values = many.get(String(blockCells[c])) as DimensionValues;
            if (values[3] === excluded) continue;
            const key = `${b}|${values[1]}`;
            expected.set(key, (expected.get(key) ?? new Set()).add(values[0]));
          }
        }
      });
      const actual = result.rows.map((r) => [`${r.bucket}|${r.group[0]}`, r.members]);
      expect(new Map(actual as Array<[string, number]>)).toEqual(
        new Map([...expected].map(([key, set]) => [key, set.size])),
      );
      compared += expected.size;
    }
    // The rounds held cells: most of them have rows to compare.
    expect(compared).toBeGreaterThan(100);
  });
});

describe("sumBuckets with percentiles", () => {
  /** A stored sketch cell of these recordings' voice times (format/sketches.ts). */
  const sketchCell = (...voiceMs: number[]) => {
    const pairs = sketchPairs(voiceMs.map((v) => sketchKey("voice", v)));
    const cell = Buffer.alloc((pairs.length / 2) * SKETCH_PAIR_BYTES);
    for (let i = 0; i < pairs.length; i += 2) {
      cell.writeUInt16LE(pairs[i] as number, 3 * i);
      cell.writeUInt32LE(pairs[i + 1] as number, 3 * i + 2);
    }
    return cell;
  };
  /** An hour read as a whole (bucket 0) minus its quarter 1 (a cover), and its quarter 1 alone (bucket 1). */
  const hour: SnapshotCells = {
    projection: "combos",
    combos,
    comboCells: [[], [], []],
    parts: Int8Array.from([ALL_QUARTERS, 1, 1]),
    cells: [[], [], []],
  };
  const hourCells = [
    stored("01"),
    cell("2,2,2,0,0,0,0"),
    stored("11"),
    cell("1,1,1,0,0,0,0"),
    stored("12"),
    cell("1,1,1,0,0,0,0"),
    stored("33"),
    cell("1,1,1,0,0,0,0"),
  ];
  const hourSketches = [
    stored("01"),
    sketchCell(10, 20),
    stored("11"),
    sketchCell(30),
    stored("12"),
    sketchCell(5000),
    stored("33"),
    sketchCell(40),
  ];
  const withSketches: SnapshotCells = {
    ...hour,
    comboCells: [hourCells, hourCells, hourCells],
    sketches: { cells: [[], [], []], comboCells: [hourSketches, hourSketches, hourSketches] },
  };
  const coverBuckets: SummedBucket[] = [{ blocks: [block(), block(-1)] }, { blocks: [block()] }];
  /** The (bucket, group values, voice percentiles 1 / 50 / 99) handed over. */
  const run = (question: Partial<Omit<SumsQuestion, "buckets" | "groupOf">>) => {
    const groups: string[] = [];
    const out: Array<[number, string, ...(number | null)[]]> = [];
    const steps = sumBuckets(
      withSketches,
      {
        buckets: coverBuckets,
        firstBlock: 0,
        filters: [],
        groupBy: [],
        activeMembers: false,
        percentiles: true,
        ...question,
        groupOf: (values) => {
          const key = JSON.stringify(values);
          if (!groups.includes(key)) groups.push(key);
          return groups.indexOf(key);
        },
      },
      {
        push(bucket, group, _sums, _at, extras) {
          const sketch = extras?.sketch;
          expect(sketch).toBeDefined();
          out.push([
            bucket,
            groups[group] ?? "",
            ...[1, 50, 99].map((q) => sketch?.percentile("voice", q) ?? null),
          ]);
        },
      },
    );
    while (!steps.next().done);
    return out;
  };

  it("gives each (bucket, group) the sketch of its cells, with the blocks' signs and quarters", () => {
    // The hour without quarter 1: 10, 20 (quarter 0) and 40 (quarter 3); quarter 1: 30 and 5000.
    expect(run({})).toEqual([
      [0, "[]", 10, 20, 40],
      [1, "[]", 30, 30, expect.closeTo(5000, -2)],
    ]);
    expect(run({ groupBy: ["app_name"], filters: [only("voice_model", "v1")] })).toEqual([
      [0, '["Zoom"]', 10, 10, 20],
      [1, '["Zoom"]', 30, 30, 30],
      [1, '["Ärzte"]', expect.closeTo(5000, -2), expect.closeTo(5000, -2), expect.closeTo(5000, -2)],
    ]);
  });

  it("counting members too, gives each group its pairs' sketches together", () => {
    expect(run({ groupBy: ["voice_model"], activeMembers: true })).toEqual([
      [0, '["v1"]', 10, 10, 20],
      [0, '["v2"]', 40, 40, 40],
      [1, '["v1"]', 30, 30, expect.closeTo(5000, -2)],
    ]);
  });

  it("refuses percentiles of a read without sketches", () => {
    expect(() =>
      sumBuckets(
        hour,
        {
          buckets: [],
          firstBlock: 0,
          filters: [],
          groupBy: [],
          activeMembers: false,
          percentiles: true,
          groupOf: () => 0,
        },
        { push: () => undefined },
      ).next(),
    ).toThrow(/without sketches/);
  });
});
