import { addPackedSlots, SUM_FIELDS } from "../format/sums";
import type { StoredCell } from "./containerCells";
import type { BucketSumsSink } from "./sumsQuestion";

const WIDTH = SUM_FIELDS.length;

export interface CellAccumulator {
  /** Adds a stored cell `sign` times to `group`'s sums. */
  add(group: number, cell: StoredCell, sign: number): void;
  /**
   * Hands `bucket`'s sums of each group with recordings (a count above zero) to `into`, in the
   * order the groups were first added to; then starts empty.
   */
  drainInto(into: BucketSumsSink, bucket: number): void;
  /**
   * As drainInto, handing each group with recordings to `visit` instead (its sums are WIDTH
   * values from `at` in `sums`, valid during the call only).
   */
  drain(visit: (group: number, sums: Float64Array, at: number) => void): void;
}

/**
 * The sums of one bucket, per group, in one Float64Array (seven slots a group): adding a cell is
 * seven adds, with no object per cell. Every value is an integer below 2^53, so the sums are exact
 * in any order, and subtracting a block (a signed cover) gives back exactly what was added.
 */
export function createCellAccumulator(): CellAccumulator {
  let sums = new Float64Array(WIDTH * 64);
  let touched = new Uint8Array(64);
  const order: number[] = [];

  function grow(group: number): void {
    const size = Math.max(group + 1, 2 * touched.length);
    const grownSums = new Float64Array(WIDTH * size);
    grownSums.set(sums);
    sums = grownSums;
    const grownTouched = new Uint8Array(size);
    grownTouched.set(touched);
    touched = grownTouched;
  }

  function drain(visit: (group: number, sums: Float64Array, at: number) => void): void {
    for (const group of order) {
      const at = WIDTH * group;
      if ((sums[at] as number) > 0) visit(group, sums, at);
      sums.fill(0, at, at + WIDTH);
      touched[group] = 0;
    }
    order.length = 0;
  }

  return {
    add(group, cell, sign) {
      if (group >= touched.length) grow(group);
      if (touched[group] === 0) {
        touched[group] = 1;
        order.push(group);
      }
      addPackedSlots(sums, WIDTH * group, cell, sign);
    },
    drainInto(into, bucket) {
      drain((group, from, at) => into.push(bucket, group, from, at));
    },
    drain,
  };
}
