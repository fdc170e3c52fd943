import { describe, expect, it } from "vitest";
import { OTHER_GROUP, shapeRows } from "./bucketShaping";
import { GroupTable } from "./groupTable";
import { previousLookup } from "./previousRows";
import { type RowTable, RowTableBuilder } from "./rowTable";

// docs/contract.md §9 `include=active_members`: each row's distinct members (the store numbers
// them: packages/store/src/read/memberPairs.ts) through the shaping of docs/contract.md §7: the
// (other) row, sorting, zero-filling and compared rows.

const MEMBERS = ["ada", "bob", "cy"];

/** One day's rows grouped by app, as aggregation builds them: [app, count, members]. */
function day(rows: Array<[string, number, string[]]>): RowTable {
  const groups = new GroupTable();
  groups.indexOf([]);
  const builder = new RowTableBuilder({ withMembers: true });
  for (const [app, count, members] of rows) {
    const sums = Float64Array.from([count, count, count, 0, 0, 0, 0]);
    const ids = Int32Array.from(members, (m) => MEMBERS.indexOf(m));
    builder.push(0, groups.indexOf([app]), sums, 0, { members: ids });
  }
  return builder.build([{ label: "d", startMs: 0 }], groups.values, ["app_name"], groups.ranks());
}

describe("active members of shaped rows", () => {
  // One bucket, grouped by app: Zoom (ada, bob), Slack (ada, cy), Teams (bob).
  const byApp = () =>
    day([
      ["Zoom", 2, ["ada", "bob"]],
      ["Slack", 5, ["ada", "cy"]],
      ["Teams", 3, ["bob"]],
    ]);
  const rowsOf = (table: RowTable) =>
    table.rows().map((r) => [r.group?.[0], r.activeMembers, r.previousActiveMembers]);

  it("gives the (other) row the distinct members of the groups it folds, not their sum", () => {
    const table = byApp();
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

  it("sorts by active members, zero-fills with none, and drops the ids once compacted", () => {
    const table = byApp();
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

  it("pairs each row with its previous row's count, the (other) row with its folded groups' members", () => {
    const table = byApp();
    // The previous day: Zoom (ada), Teams (bob, cy).
    const previous = day([
      ["Zoom", 1, ["ada"]],
      ["Teams", 3, ["bob", "cy"]],
    ]);
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
