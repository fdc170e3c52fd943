import { emptySums, packSums, type Sums } from "@vu/store";
import { describe, expect, it } from "vitest";
import { type CellAccumulator, createCellAccumulator } from "./cellAccumulator";
import { RowTableBuilder } from "./rowTable";

/** The rows one drain gives, as `{ group, sums }` in group order (groups named by their index). */
function drain(acc: CellAccumulator) {
  const builder = new RowTableBuilder();
  acc.drainInto(builder, 0);
  const names = Array.from({ length: 10_001 }, (_, i) => String(i));
  const table = builder.build(
    [{ label: "b", startMs: 0 }],
    names.map((name) => [name]),
    ["app_name"],
    Int32Array.from(names, (_, i) => i),
  );
  return table.rows().map((row) => ({ group: Number(row.group?.[0]), sums: row.sums }));
}

const sums = (count: number, big = 0): Sums => ({ ...emptySums(), count, words: 10 * count, llmMsSum: big });

describe("createCellAccumulator", () => {
  it("adds small and large cells with their signs, per group", () => {
    const acc = createCellAccumulator();
    acc.add(3, packSums(sums(2)), 1);
    // A sum past 2^32 is stored as seven doubles.
    acc.add(0, packSums(sums(1, 2 ** 40)), 1);
    acc.add(3, packSums(sums(5)), 1);
    acc.add(3, packSums(sums(2)), -1);
    expect(drain(acc)).toEqual([
      { group: 0, sums: sums(1, 2 ** 40) },
      { group: 3, sums: sums(5) },
    ]);
  });

  it("gives no row for a group whose count nets to zero, and starts empty after a drain", () => {
    const acc = createCellAccumulator();
    acc.add(1, packSums(sums(4)), 1);
    acc.add(1, packSums(sums(4)), -1);
    acc.add(2, packSums(sums(1)), 1);
    expect(drain(acc).map((r) => r.group)).toEqual([2]);
    expect(drain(acc)).toEqual([]);
    acc.add(2, packSums(sums(7)), 1);
    expect(drain(acc)).toEqual([{ group: 2, sums: sums(7) }]);
  });

  it("grows past its first size and keeps what it held", () => {
    const acc = createCellAccumulator();
    acc.add(5, packSums(sums(1)), 1);
    acc.add(10_000, packSums(sums(2)), 1);
    expect(drain(acc)).toEqual([
      { group: 5, sums: sums(1) },
      { group: 10_000, sums: sums(2) },
    ]);
  });

  it("refuses a cell of neither stored size", () => {
    expect(() => createCellAccumulator().add(0, Buffer.alloc(27), 1)).toThrow(
      /malformed rollup cell: 27 bytes/,
    );
  });
});
