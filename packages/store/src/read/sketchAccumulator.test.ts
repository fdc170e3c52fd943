import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  addSketchCell,
  LLM_KEY_FLAG,
  SKETCH_PAIR_BYTES,
  SKETCH_SPAN,
  SketchCounts,
} from "../format/sketches";
import { SketchAccumulator } from "./sketchAccumulator";

/** A stored cell: pairs in ascending key order, as the apply script keeps them. */
function cellOf(pairs: Map<number, number>): Buffer {
  const keys = [...pairs.keys()].sort((a, b) => a - b);
  const cell = Buffer.alloc(keys.length * SKETCH_PAIR_BYTES);
  keys.forEach((key, i) => {
    cell.writeUInt16LE(key, i * SKETCH_PAIR_BYTES);
    cell.writeUInt32LE(pairs.get(key) as number, i * SKETCH_PAIR_BYTES + 2);
  });
  return cell;
}

const key = fc.oneof(
  fc.integer({ min: 0, max: SKETCH_SPAN - 1 }),
  fc.integer({ min: LLM_KEY_FLAG, max: LLM_KEY_FLAG + SKETCH_SPAN - 1 }),
);
const cell = fc
  .array(fc.tuple(key, fc.integer({ min: 1, max: 2 ** 32 - 1 })), { maxLength: 40 })
  .map((pairs) => cellOf(new Map(pairs)));
/** Cells given to groups 0-3 with signs, as a bucket's blocks add and take them off. */
const adds = fc.array(fc.tuple(fc.integer({ min: 0, max: 3 }), cell, fc.constantFrom(1, -1, 2)), {
  maxLength: 12,
});

describe("SketchAccumulator", () => {
  it("takes each group's sketch as a map of counts would, bucket after bucket", () => {
    const accumulator = new SketchAccumulator();
    fc.assert(
      fc.property(adds, (bucket) => {
        const expected = new Map<number, SketchCounts>();
        for (const [group, stored, sign] of bucket) {
          accumulator.add(group, stored, sign);
          const counts = expected.get(group) ?? new SketchCounts();
          addSketchCell(counts, stored, sign);
          expected.set(group, counts);
        }
        for (let group = 0; group <= 3; group++) {
          const taken = accumulator.take(group);
          const want = (expected.get(group) ?? new SketchCounts()).sketch();
          expect([...taken.keys]).toEqual([...want.keys]);
          expect([...taken.counts]).toEqual([...want.counts]);
        }
        // The same accumulator goes on to the next bucket: nothing of this one may remain.
        accumulator.clear();
      }),
    );
  });

  it("takes a group's one cell, added once, as the sketch it stores", () => {
    const accumulator = new SketchAccumulator();
    fc.assert(
      fc.property(cell, (stored) => {
        accumulator.add(0, stored, 1);
        const taken = accumulator.take(0);
        const want = new SketchCounts();
        addSketchCell(want, stored, 1);
        expect([...taken.keys]).toEqual([...want.sketch().keys]);
        expect([...taken.counts]).toEqual([...want.sketch().counts]);
        accumulator.clear();
      }),
    );
    // Out of order (no cell the apply script writes): still the counts it holds, sorted.
    const unsorted = Buffer.concat([cellOf(new Map([[9, 2]])), cellOf(new Map([[3, 1]]))]);
    accumulator.add(1, unsorted, 1);
    expect([...accumulator.take(1).keys]).toEqual([3, 9]);
  });

  it("refuses a cell that is not whole pairs, and a key outside both spans", () => {
    const accumulator = new SketchAccumulator();
    expect(() => accumulator.add(0, Buffer.alloc(SKETCH_PAIR_BYTES + 1), 1)).toThrow("malformed");
    accumulator.add(0, cellOf(new Map([[SKETCH_SPAN, 1]])), 1);
    expect(() => accumulator.take(0)).toThrow("out of range");
  });
});
