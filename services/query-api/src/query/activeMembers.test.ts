import type { DimensionValues } from "@vu/events";
import { ALL_QUARTERS, type BlockSnapshot, emptySums, packSums, WHOLE_BLOCK } from "@vu/store";
import { describe, expect, it } from "vitest";
import { OTHER_GROUP, shapeRows } from "./bucketShaping";
import { type DimensionFilter, parseFilters } from "./filters";
import { previousLookup } from "./previousRows";
import { type AggregatedBucket, type AggregateOptions, aggregateRowsInTurns } from "./rowAggregation";

// docs/contract.md §9 `include=active_members`: each row's distinct members, counted from the
// cells the store keeps per combination (or per member), through signed covers, filters, groups,
// and the shaping of docs/contract.md §7.

/** Turns never due: the aggregation runs straight through. */
const NEVER = { due: () => false, pause: async () => expect.unreachable("paused") };
const aggregate = (buckets: AggregatedBucket[], snapshot: BlockSnapshot, options: AggregateOptions) =>
  aggregateRowsInTurns(buckets, snapshot, options, NEVER);

const counted = (count: number): Buffer =>
  packSums({ ...emptySums(), count, words: count, durationMs: count });
const stored = (field: string): Buffer => Buffer.from(field);
/** A block's cells from `[field, count]` pairs. */
const cellsOf = (...cells: Array<[string, number]>) => cells.flatMap(([f, n]) => [stored(f), counted(n)]);

const combos = new Map<string, DimensionValues>([
  ["1", ["ada@x.com", "v1", "gpt", "Zoom"]],
  ["2", ["bob@x.com", "v1", null, "Zoom"]],
  ["3", ["ada@x.com", "v2", "gpt", "Slack"]],
  ["4", ["cy@x.com", "v2", null, "Slack"]],
  ["5", ["bob@x.com", "v2", "gpt", "Teams"]],
]);
const block = (startMs: number, sign: 1 | -1 = 1) => ({ tier: "hour" as const, startMs, sign });
const whole = (n: number) => new Int8Array(n).fill(WHOLE_BLOCK);
const snapshotOf = (cells: Buffer[][], view: BlockSnapshot["view"] = "combos"): BlockSnapshot => ({
  view,
  extent: "unknown",
  stamp: null,
  comboCells: [],
  combos,
  parts: whole(cells.length),
  cells,
});

/** Each row as [label, group…, count, active members]. */
const shown = (table: Awaited<ReturnType<typeof aggregate>>) =>
  table.rows().map((r) => [r.label, ...(r.group ?? []), r.sums.count, r.activeMembers]);

describe("active members of aggregated rows", () => {
  const twoDays = snapshotOf([
    cellsOf(["1", 2], ["3", 1], ["2", 1]),
    cellsOf(["4", 1], ["5", 3]),
    cellsOf(["1", 1]),
  ]);
  const days: AggregatedBucket[] = [
    { label: "d1", startMs: 0, blocks: [block(0), block(1)] },
    { label: "d2", startMs: 1, blocks: [block(2)] },
  ];

  it("counts a member once however many of its combinations a row holds", async () => {
    const rows = await aggregate(days, twoDays, { filters: [], activeMembers: true });
    // d1: ada (1, 3), bob (2, 5), cy (4).
    expect(shown(rows)).toEqual([
      ["d1", 8, 3],
      ["d2", 1, 1],
    ]);
    expect(rows.members?.distinct()).toBe(3);
  });

  it("counts per group and after filters and exclusions", async () => {
    const byApp = await aggregate(days, twoDays, { filters: [], groupBy: ["app_name"], activeMembers: true });
    expect(shown(byApp)).toEqual([
      ["d1", "Slack", 2, 2],
      ["d1", "Teams", 3, 1],
      ["d1", "Zoom", 3, 2],
      ["d2", "Zoom", 1, 1],
    ]);
    const filters: DimensionFilter[] = parseFilters({ voice_model: "v2" }, { member_email: "CY@x.com" });
    const filtered = await aggregate(days, twoDays, { filters, groupBy: ["app_name"], activeMembers: true });
    expect(shown(filtered)).toEqual([
      ["d1", "Slack", 1, 1],
      ["d1", "Teams", 3, 1],
    ]);
  });

  it("leaves the sums as they are without members", async () => {
    const options = { filters: [], groupBy: ["voice_model" as const, "app_name" as const] };
    const plain = (await aggregate(days, twoDays, options)).rows();
    const withMembers = (await aggregate(days, twoDays, { ...options, activeMembers: true })).rows();
    expect(withMembers.map(({ activeMembers, ...row }) => row)).toEqual(plain);
    expect(plain.every((row) => row.activeMembers === undefined)).toBe(true);
  });

  it("does not count a member whose cells cancel in a signed cover", async () => {
    // The bucket is the day block minus an hour: bob's only recording lies in that hour.
    const signed = snapshotOf([cellsOf(["1", 2], ["2", 1]), cellsOf(["2", 1])]);
    const rows = await aggregate([{ label: "d", startMs: 0, blocks: [block(0), block(1, -1)] }], signed, {
      filters: [],
      activeMembers: true,
    });
    expect(shown(rows)).toEqual([["d", 2, 1]]);
  });

  it("counts from the members' projection, its field being the member, and from container cells", async () => {
    const projection: BlockSnapshot = {
      ...snapshotOf([cellsOf(["ada@x.com", 2], ["bob@x.com", 1]), []], "member_email"),
      // The second block's cells are kept without views: combinations, one of them ada's again.
      comboCells: [[], cellsOf(["3", 1], ["4", 1])],
    };
    const rows = await aggregate([{ label: "d", startMs: 0, blocks: [block(0), block(1)] }], projection, {
      filters: parseFilters({}, { member_email: "bob@x.com" }),
      activeMembers: true,
    });
    expect(shown(rows)).toEqual([["d", 4, 2]]);
  });

  it("counts within a split hour's quarters", async () => {
    const hour = cellsOf(["01", 1], ["12", 1], ["25", 1]);
    const split: BlockSnapshot = { ...snapshotOf([hour, hour]), parts: Int8Array.from([ALL_QUARTERS, 2]) };
    const rows = await aggregate(
      [{ label: "q01", startMs: 0, blocks: [block(0), { ...block(1, -1), tier: "hour" }] }],
      split,
      { filters: [], activeMembers: true },
    );
    // Quarter 2 (bob's Teams) taken off: ada (quarter 0) and bob (quarter 1, combination 2).
    expect(shown(rows)).toEqual([["q01", 2, 2]]);
  });

  it("refuses a view whose cells do not name their member", async () => {
    const byApp = snapshotOf([cellsOf(["Zoom", 1])], "app_name");
    await expect(
      aggregate([{ label: "d", startMs: 0, blocks: [block(0)] }], byApp, {
        filters: [],
        groupBy: ["app_name"],
        activeMembers: true,
      }),
    ).rejects.toThrow(/cannot count members/);
  });

  it("matches a brute-force count over random cells, groups, filters and covers", async () => {
    let state = 7;
    const random = (n: number) => {
      state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
      return state % n;
    };
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
      const snapshot: BlockSnapshot = { ...snapshotOf(cells), combos: many };
      const buckets: AggregatedBucket[] = [0, 1].map((b) => ({
        label: `b${b}`,
        startMs: b,
        blocks: [block(3 * b), block(3 * b + 1), block(3 * b + 2), block(3 * b + 2, -1)],
      }));
      const filters = random(2) === 0 ? [] : parseFilters({}, { app_name: `app${random(4)}` });
      const table = await aggregate(buckets, snapshot, {
        filters,
        groupBy: ["voice_model"],
        activeMembers: true,
      });
      const expected = new Map<string, Set<string>>();
      buckets.forEach((bucket, b) => {
        for (const i of [3 * b, 3 * b + 1]) {
          const blockCells = cells[i] ?? [];
          for (let c = 0; c < blockCells.length; c += 2) {
            const values = many.get(String(blockCells[c])) as DimensionValues;
            if (filters.some((f) => f.values.has(values[3]))) continue;
            const key = `${bucket.label}|${values[1]}`;
            expected.set(key, (expected.get(key) ?? new Set()).add(values[0]));
          }
        }
      });
      const actual = table.rows().map((r) => [`${r.label}|${r.group?.[0]}`, r.activeMembers]);
      expect(new Map(actual as Array<[string, number]>)).toEqual(
        new Map([...expected].map(([key, members]) => [key, members.size])),
      );
    }
  });
});

describe("active members of shaped rows", () => {
  // One bucket, grouped by app: Zoom (ada, bob), Slack (ada, cy), Teams (bob).
  const day = snapshotOf([cellsOf(["1", 1], ["2", 1], ["3", 4], ["4", 1], ["5", 3])]);
  const oneDay: AggregatedBucket[] = [{ label: "d", startMs: 0, blocks: [block(0)] }];
  const byApp = () => aggregate(oneDay, day, { filters: [], groupBy: ["app_name"], activeMembers: true });
  const rowsOf = (table: Awaited<ReturnType<typeof aggregate>>) =>
    table.rows().map((r) => [r.group?.[0], r.activeMembers, r.previousActiveMembers]);

  it("gives the (other) row the distinct members of the groups it folds, not their sum", async () => {
    const table = await byApp();
    const shaped = shapeRows(table, {
      sort: [{ field: "recording_count", descending: true }],
      limit: 1,
      other: true,
    });
    // Slack (5 recordings) kept; Teams (bob) and Zoom (ada, bob) folded: 2 members, not 3.
    expect(rowsOf(shaped)).toEqual([
      ["Slack", 2, undefined],
      [OTHER_GROUP, 2, undefined],
    ]);
  });

  it("sorts by active members, zero-fills with none, and drops the ids once compacted", async () => {
    const table = await byApp();
    const sorted = shapeRows(table, { sort: [{ field: "active_members", descending: false }], other: false });
    expect(rowsOf(sorted).map((r) => r[0])).toEqual(["Teams", "Slack", "Zoom"]);
    const filled = shapeRows(table, {
      sort: [],
      other: false,
      fill: [
        { label: "d", startMs: 0 },
        { label: "e", startMs: 1 },
      ],
    });
    expect(filled.rows().map((r) => [r.label, r.group?.[0], r.activeMembers])).toEqual([
      ["d", "Slack", 2],
      ["d", "Teams", 1],
      ["d", "Zoom", 2],
      ["e", "Slack", 0],
      ["e", "Teams", 0],
      ["e", "Zoom", 0],
    ]);
    const compacted = filled.withMembersCompacted();
    expect(compacted.rows()).toEqual(filled.rows());
    expect(compacted.members?.ids).toBeUndefined();
  });

  it("pairs each row with its previous row's count, the (other) row with its folded groups' members", async () => {
    const table = await byApp();
    // The previous day: Zoom (ada), Teams (bob, cy).
    const cyOnTeams = new Map<string, DimensionValues>([
      ...combos,
      ["6", ["cy@x.com", "v2", "gpt", "Teams"]],
    ]);
    const before = { ...snapshotOf([cellsOf(["1", 1], ["5", 1], ["6", 2])]), combos: cyOnTeams };
    const previous = await aggregate(oneDay, before, {
      filters: [],
      groupBy: ["app_name"],
      activeMembers: true,
    });
    const shaped = shapeRows(table, {
      sort: [],
      limit: 1,
      other: true,
      previous: previousLookup(table, previous, new Map([["d", "d"]])),
    });
    // Slack had no row before; the (other) row folds Teams (bob, cy) and Zoom (ada) before.
    expect(rowsOf(shaped)).toEqual([
      ["Slack", 2, 0],
      [OTHER_GROUP, 2, 3],
    ]);
  });
});
