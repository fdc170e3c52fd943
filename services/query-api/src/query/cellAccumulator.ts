import { LARGE_CELL_BYTES, SMALL_CELL_BYTES, SUM_FIELDS } from "@vu/store";
import type { RowTableBuilder } from "./rowTable";

const WIDTH = SUM_FIELDS.length;

export interface CellAccumulator {
  /** Adds a stored cell (see sums.ts) `sign` times to `group`'s sums. */
  add(group: number, packed: Buffer, sign: number): void;
  /**
   * Adds a row of `bucket` to `rows` for each group with recordings (a count above zero), in the
   * order the groups were first added to; then starts empty.
   */
  drainInto(rows: RowTableBuilder, bucket: number): void;
}

/** A little-endian u32 from four bytes: no bounds-checked call, no allocation. */
function u32(b: Buffer, at: number): number {
  return (
    ((b[at] as number) | ((b[at + 1] as number) << 8) | ((b[at + 2] as number) << 16)) +
    (b[at + 3] as number) * 0x1000000
  );
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

  return {
    add(group, packed, sign) {
      if (group >= touched.length) grow(group);
      if (touched[group] === 0) {
        touched[group] = 1;
        order.push(group);
      }
      const at = WIDTH * group;
      if (packed.length === SMALL_CELL_BYTES) {
        for (let k = 0; k < WIDTH; k++) sums[at + k] = (sums[at + k] as number) + sign * u32(packed, 4 * k);
      } else if (packed.length === LARGE_CELL_BYTES) {
        for (let k = 0; k < WIDTH; k++)
          sums[at + k] = (sums[at + k] as number) + sign * packed.readDoubleLE(8 * k);
      } else {
        throw new Error(`malformed rollup cell: ${packed.length} bytes`);
      }
    },
    drainInto(rows, bucket) {
      for (const group of order) {
        const at = WIDTH * group;
        if ((sums[at] as number) > 0) rows.push(bucket, group, sums, at);
        sums.fill(0, at, at + WIDTH);
        touched[group] = 0;
      }
      order.length = 0;
    },
  };
}
