import { describe, expect, it } from "vitest";
import { emptySums, packSums, SUM_FIELDS, type Sums } from "../format/sums";
import { type CellAccumulator, createCellAccumulator } from "./cellAccumulator";

/** What one drain hands over, as `{ group, sums }` in the order handed. */
function drain(acc: CellAccumulator) {
  const drained: Array<{ group: number; sums: Sums }> = [];
  acc.drainInto(
    {
      push(bucket, group, values, at) {
        expect(bucket).toBe(0);
        const sums = emptySums();
        SUM_FIELDS.forEach((field, k) => {
          sums[field] = values[at + k] as number;
        });
        drained.push({ group, sums });
      },
    },
    0,
  );
  return drained;
}

const sums = (count: number, big = 0): Sums => ({ ...emptySums(), count, words: 10 * count, llmMsSum: big });

describe("createCellAccumulator", () => {
  it("adds small and large cells with their signs, per group, handed over in the order first added", () => {
    const acc = createCellAccumulator();
    acc.add(3, packSums(sums(2)), 1);
    // A sum past 2^32 is stored as seven doubles.
    acc.add(0, packSums(sums(1, 2 ** 40)), 1);
    acc.add(3, packSums(sums(5)), 1);
    acc.add(3, packSums(sums(2)), -1);
    expect(drain(acc)).toEqual([
      { group: 3, sums: sums(5) },
      { group: 0, sums: sums(1, 2 ** 40) },
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
