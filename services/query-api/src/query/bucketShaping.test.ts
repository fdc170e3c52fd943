import { emptySums, type Sums } from "@vu/store";
import { describe, expect, it } from "vitest";
import { MAX_FILLED_ROWS, OTHER_GROUP, type ShapeOptions, shapeRows } from "./bucketShaping";
import { GroupTable, type GroupValues } from "./groupTable";
import { type RowTable, RowTableBuilder } from "./rowTable";

const buckets = [
  { label: "d1", startMs: 1 },
  { label: "d3", startMs: 3 },
];
const range = [
  { label: "d0", startMs: 0 },
  { label: "d1", startMs: 1 },
  { label: "d2", startMs: 2 },
  { label: "d3", startMs: 3 },
];

/** Sums of `count` recordings of `words` words each, a minute long, one voice time of `voiceMs`. */
function sums(count: number, words: number, voiceMs = 0): Float64Array {
  return Float64Array.from([count, count * words, count * 60_000, voiceMs, voiceMs > 0 ? 1 : 0, 0, 0]);
}

/** A grouped table: rows [bucket, group values, sums], grouped by app_name (and voice_model when two values). */
function table(rows: Array<[number, GroupValues, Float64Array]>): RowTable {
  const groups = new GroupTable();
  groups.indexOf([]);
  const builder = new RowTableBuilder();
  for (const [bucket, values, s] of rows) builder.push(bucket, groups.indexOf(values), s, 0);
  const width = rows[0]?.[1].length ?? 0;
  const dimensions = (["app_name", "voice_model"] as const).slice(0, width);
  return builder.build(buckets, groups.values, dimensions, groups.ranks());
}

const shape = (t: RowTable, options: Partial<ShapeOptions>) =>
  shapeRows(t, { sort: [], other: false, ...options })
    .rows()
    .map((r) => [r.label, ...(r.group ?? []), r.sums.count]);

const apps = table([
  [0, ["Zoom"], sums(1, 10)],
  [0, ["Slack"], sums(3, 1)],
  [0, ["Teams"], sums(2, 100)],
  [0, [null], sums(1, 5)],
  [1, ["Zoom"], sums(5, 1)],
]);

describe("shapeRows", () => {
  it("returns the table itself when nothing shapes it (a seed query)", () => {
    expect(shapeRows(apps, { sort: [], other: false })).toBe(apps);
    expect(shape(apps, {})).toEqual([
      ["d1", "Slack", 3],
      ["d1", "Teams", 2],
      ["d1", "Zoom", 1],
      ["d1", null, 1],
      ["d3", "Zoom", 5],
    ]);
  });

  it("sorts each bucket by metrics as shown, then the next key, ties in the default order", () => {
    expect(shape(apps, { sort: [{ field: "total_words", descending: true }] })).toEqual([
      ["d1", "Teams", 2],
      ["d1", "Zoom", 1],
      ["d1", null, 1],
      ["d1", "Slack", 3],
      ["d3", "Zoom", 5],
    ]);
    // avg_wpm: Teams 100, Zoom 10, null 5, Slack 1; ascending.
    expect(shape(apps, { sort: [{ field: "avg_wpm", descending: false }] }).map((r) => r[1])).toEqual([
      "Slack",
      null,
      "Zoom",
      "Teams",
      "Zoom",
    ]);
    // recording_count ties (Zoom, null at 1): broken by app_name descending, null first.
    const byCount = shape(apps, {
      sort: [
        { field: "recording_count", descending: false },
        { field: "app_name", descending: true },
      ],
    });
    expect(byCount.map((r) => r[1])).toEqual([null, "Zoom", "Teams", "Slack", "Zoom"]);
  });

  it("keeps the top N of each bucket and sums the rest exactly into one (other) row", () => {
    const top = shapeRows(apps, {
      sort: [{ field: "recording_count", descending: true }],
      limit: 2,
      other: true,
    });
    expect(top.rows().map((r) => [r.label, ...(r.group ?? []), r.sums.count, r.sums.words])).toEqual([
      ["d1", "Slack", 3, 3],
      ["d1", "Teams", 2, 200],
      ["d1", OTHER_GROUP, 2, 15],
      ["d3", "Zoom", 5, 5],
    ]);
    expect(shape(apps, { limit: 1 })).toEqual([
      ["d1", "Slack", 3],
      ["d3", "Zoom", 5],
    ]);
  });

  it("names every group field (other) when grouped by several dimensions", () => {
    const pairs = table([
      [0, ["Zoom", "v1"], sums(1, 1)],
      [0, ["Zoom", "v2"], sums(2, 1)],
      [0, ["Slack", "v1"], sums(4, 1)],
    ]);
    expect(shape(pairs, { limit: 1, other: true })).toEqual([
      ["d1", "Slack", "v1", 4],
      ["d1", OTHER_GROUP, OTHER_GROUP, 3],
    ]);
  });

  it("fills every bucket of the range with zero rows for the groups of the answer, before sort and limit", () => {
    expect(shape(apps, { fill: range, limit: 2 })).toEqual([
      ["d0", "Slack", 0],
      ["d0", "Teams", 0],
      ["d1", "Slack", 3],
      ["d1", "Teams", 2],
      ["d2", "Slack", 0],
      ["d2", "Teams", 0],
      ["d3", "Slack", 0],
      ["d3", "Teams", 0],
    ]);
    const sorted = shape(apps, { fill: range, sort: [{ field: "recording_count", descending: true }] });
    expect(sorted.filter((r) => r[0] === "d3")).toEqual([
      ["d3", "Zoom", 5],
      ["d3", "Slack", 0],
      ["d3", "Teams", 0],
      ["d3", null, 0],
    ]);
  });

  it("fills an ungrouped answer with one zero row per empty bucket", () => {
    const builder = new RowTableBuilder();
    builder.push(1, 0, sums(2, 3), 0);
    const ungrouped = builder.build(buckets, [[]], [], Int32Array.from([0]));
    const filled = shapeRows(ungrouped, { sort: [], other: false, fill: range }).rows();
    expect(filled.map((r) => [r.label, r.sums.count])).toEqual([
      ["d0", 0],
      ["d1", 0],
      ["d2", 0],
      ["d3", 2],
    ]);
    expect(filled[0]?.sums).toEqual(emptySums() satisfies Sums);
  });

  it("refuses a fill of more than MAX_FILLED_ROWS rows before making one, naming fill", () => {
    const many = Array.from({ length: MAX_FILLED_ROWS / 2 + 1 }, (_, i) => ({ label: `b${i}`, startMs: i }));
    const t = table([
      [0, ["a"], sums(1, 1)],
      [0, ["b"], sums(1, 1)],
    ]);
    expect(() => shapeRows(t, { sort: [], other: false, fill: [...buckets, ...many] })).toThrow(/fill/);
  });
});
