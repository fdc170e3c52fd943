import {
  EMPTY_SKETCH,
  LLM_KEY_FLAG,
  PercentileSketch,
  SKETCH_PAIR_BYTES,
  SKETCH_SPAN,
} from "../format/sketches";

/** Slots of the scratch counts: the voice keys' span, then the LLM keys' (format/sketches.ts). */
const SLOTS = 2 * SKETCH_SPAN;

/** A stored pair's key: a little-endian u16 (format/sketches.ts). */
const keyAt = (cell: Buffer, at: number) => (cell[at] as number) | ((cell[at + 1] as number) << 8);

/** A stored pair's count: a little-endian u32 after its key. */
const countAt = (cell: Buffer, at: number) =>
  ((cell[at + 2] as number) | ((cell[at + 3] as number) << 8) | ((cell[at + 4] as number) << 16)) +
  (cell[at + 5] as number) * 0x1000000;

/** A key's scratch slot; a key outside both spans is refused. */
function slotOf(key: number): number {
  const slot = key >= LLM_KEY_FLAG ? SKETCH_SPAN + (key - LLM_KEY_FLAG) : key;
  if ((key < LLM_KEY_FLAG && key >= SKETCH_SPAN) || slot >= SLOTS)
    throw new Error(`sketch key ${key} out of range`);
  return slot;
}

/**
 * A stored cell read as a sketch as it is: its pairs when they are as the apply script keeps them
 * (keys ascending, no count 0); undefined otherwise, for the general walk to sort and drop.
 */
function sketchOfCell(cell: Buffer): PercentileSketch | undefined {
  const n = cell.length / SKETCH_PAIR_BYTES;
  if (n === 0) return EMPTY_SKETCH;
  const keys = new Int32Array(n);
  const counts = new Float64Array(n);
  let previous = -1;
  for (let i = 0, at = 0; i < n; i++, at += SKETCH_PAIR_BYTES) {
    const key = keyAt(cell, at);
    const count = countAt(cell, at);
    slotOf(key);
    if (key <= previous || count === 0) return undefined;
    keys[i] = key;
    counts[i] = count;
    previous = key;
  }
  return new PercentileSketch(keys, counts);
}

/**
 * docs/contract.md §9 `percentiles`: one bucket's sketches per group, from the sketch cells beside
 * its cells (of the projection read, and combination cells), each added with its block's sign
 * (format/sketches.ts). A key whose count
 * nets to zero had no recording, exactly as a sum that nets to zero.
 *
 * A group keeps the cells it was given (the reply's bytes, no copy) until its sketch is taken; then
 * they are counted in one dense scratch array with a slot per key, and the sketch is read off the
 * slots the cells named, listed as they are first met: no map, and work in proportion to the
 * cells' pairs, not to the span of keys between a group's fastest and slowest recording (a
 * 13-month member question takes tens of thousands of sketches).
 */
export class SketchAccumulator {
  private readonly cells: Array<Buffer[] | undefined> = [];
  private readonly signs: Array<number[] | undefined> = [];
  private readonly touched: number[] = [];
  private readonly scratch = new Float64Array(SLOTS);
  /** The slots met while taking one sketch, in the order met, and whether each is listed. */
  private readonly met = new Int32Array(SLOTS);
  private readonly listed = new Uint8Array(SLOTS);

  /** Adds a stored sketch cell (its bytes as sketches.ts lays them out) `sign` times to `group`'s sketch. */
  add(group: number, cell: Buffer, sign: number): void {
    if (cell.length % SKETCH_PAIR_BYTES !== 0) throw new Error(`malformed sketch cell: ${cell.length} bytes`);
    let cells = this.cells[group];
    let signs = this.signs[group];
    if (cells === undefined || signs === undefined) {
      cells = [];
      signs = [];
      this.cells[group] = cells;
      this.signs[group] = signs;
      this.touched.push(group);
    }
    cells.push(cell);
    signs.push(sign);
  }

  /** `group`'s sketch in this bucket (empty when none of its recordings had a time). */
  take(group: number): PercentileSketch {
    const cells = this.cells[group];
    const signs = this.signs[group];
    if (cells === undefined || signs === undefined) return EMPTY_SKETCH;
    // One stored cell added once (a member's month, a whole block of one group): its pairs are the sketch.
    if (cells.length === 1 && signs[0] === 1) {
      const stored = sketchOfCell(cells[0] as Buffer);
      if (stored) return stored;
    }
    const { scratch, met, listed } = this;
    let metCount = 0;
    // Stored pairs are in key order, so one cell's slots come in order; several cells need a sort.
    let inOrder = true;
    for (let c = 0; c < cells.length; c++) {
      const cell = cells[c] as Buffer;
      const sign = signs[c] as number;
      for (let at = 0; at < cell.length; at += SKETCH_PAIR_BYTES) {
        const key = keyAt(cell, at);
        const count = countAt(cell, at);
        const slot = slotOf(key);
        if (listed[slot] === 0) {
          listed[slot] = 1;
          if (metCount > 0 && slot < (met[metCount - 1] as number)) inOrder = false;
          met[metCount++] = slot;
        }
        scratch[slot] = (scratch[slot] as number) + sign * count;
      }
    }
    const slots = met.subarray(0, metCount);
    if (!inOrder) slots.sort();
    let n = 0;
    for (let i = 0; i < metCount; i++) if ((scratch[slots[i] as number] as number) > 0) n++;
    const keys = new Int32Array(n);
    const counts = new Float64Array(n);
    let k = 0;
    // Voice slots come before the LLM ones, so slot order is key order.
    for (let i = 0; i < metCount; i++) {
      const s = slots[i] as number;
      const count = scratch[s] as number;
      if (count > 0) {
        keys[k] = s >= SKETCH_SPAN ? LLM_KEY_FLAG + (s - SKETCH_SPAN) : s;
        counts[k++] = count;
      }
      scratch[s] = 0;
      listed[s] = 0;
    }
    return n === 0 ? EMPTY_SKETCH : new PercentileSketch(keys, counts);
  }

  /** Starts the next bucket empty. */
  clear(): void {
    for (const group of this.touched) {
      this.cells[group] = undefined;
      this.signs[group] = undefined;
    }
    this.touched.length = 0;
  }
}
