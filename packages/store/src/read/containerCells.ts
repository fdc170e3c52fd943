import { FIELD_SEPARATOR } from "../format/blockPlacement";
import { projectionValue } from "../format/projections";
import { addPacked, emptySums, type Sums } from "../format/sums";
import { StoreError } from "../storeError";

/**
 * One block's cells as read: flat `[field, packed sums (see sums.ts), field, ...]`, both as the
 * reply's bytes. Field names are not decoded here: summing (fieldClasses.ts) decodes each distinct
 * one once. Walk them with cellCount, cellField and cellSums, and add a cell's sums with
 * addPackedSlots (sums.ts).
 */
export type StoredCells = Buffer[];
/** One cell's packed sums, for addPackedSlots (sums.ts). */
export type StoredCell = Buffer;

/** How many cells a block holds. */
export function cellCount(cells: StoredCells): number {
  return cells.length >> 1;
}

/** The field of cell `i` (0 ≤ i < cellCount): read it with fieldQuarter, comboIdOf and projection*Of. */
export function cellField(cells: StoredCells, i: number): Buffer {
  return cells[2 * i] as Buffer;
}

/** The packed sums of cell `i`. */
export function cellSums(cells: StoredCells, i: number): StoredCell {
  return cells[2 * i + 1] as StoredCell;
}

/** All of a block's cells summed, whatever their fields: for tests and tools (queries filter and group). */
export function sumCells(cells: StoredCells, into: Sums = emptySums()): Sums {
  for (let i = 0; i < cellCount(cells); i++) addPacked(into, cellSums(cells, i));
  return into;
}

const SEPARATOR = FIELD_SEPARATOR.charCodeAt(0);
const DIGIT_0 = 48;

/** The decimal block index before the separator at `at`; a field whose index is not digits is refused. */
function blockIndexOf(field: Buffer, at: number): number {
  let index = 0;
  for (let i = 0; i < at; i++) {
    const digit = (field[i] as number) - DIGIT_0;
    if (digit < 0 || digit > 9)
      throw new Error(`container field ${JSON.stringify(field.toString())} has no block index`);
    index = index * 10 + digit;
  }
  return index;
}

/**
 * A container's cells (an HGETALL reply, `[field, cell, ...]`) grouped by the block they belong
 * to: block index → that block's cells with its `<index>:` cut from every field (pointing into
 * the reply's bytes, not a copy), as a block key of its own would hold them. With `wanted`, only
 * the blocks whose index it marks (1): the others' cells are skipped.
 */
export function cellsByBlock(reply: readonly Buffer[], wanted?: Uint8Array): Map<number, StoredCells> {
  const blocks = new Map<number, StoredCells>();
  for (let i = 0; i + 1 < reply.length; i += 2) {
    const field = reply[i] as Buffer;
    const at = field.indexOf(SEPARATOR);
    if (at <= 0) throw new Error(`container field ${JSON.stringify(field.toString())} has no block index`);
    const index = blockIndexOf(field, at);
    if (wanted !== undefined && wanted[index] !== 1) continue;
    let cells = blocks.get(index);
    if (cells === undefined) {
      cells = [];
      blocks.set(index, cells);
    }
    cells.push(field.subarray(at + 1), reply[i + 1] as Buffer);
  }
  return blocks;
}

// Reading a stored field (a block's cells as StoredCells hold them), in one place: a split hour
// block's fields start with their UTC quarter's digit (quarterCells.ts); the rest is a
// combination id in decimal (the combinations projection and keys without projections) or a
// dimension's value in UTF-8 (the empty field: no language model; projections.ts).

/** The bytes of a split hour field's quarter digit, before the field proper. */
const QUARTER_DIGIT_BYTES = 1;

function corruptField(field: Buffer, what: string): StoreError {
  return new StoreError(`stored field ${JSON.stringify(field.toString())} ${what}`, {
    retriable: false,
    context: { field: field.toString("hex") },
  });
}

/** Where the field proper starts: after the quarter digit in a split hour block. */
export function fieldStart(split: boolean): number {
  return split ? QUARTER_DIGIT_BYTES : 0;
}

/** The UTC quarter (0-3) of a split hour block's field; a field without its digit is refused, not dropped. */
export function fieldQuarter(field: Buffer): number {
  const q = (field[0] ?? 0) - DIGIT_0;
  if (!(q >= 0 && q <= 3)) throw corruptField(field, "has no quarter digit");
  return q;
}

/** The combination id a combinations field names from byte `from` (fieldStart). */
export function comboIdOf(field: Buffer, from: number): number {
  if (from >= field.length) throw corruptField(field, "names no combination");
  let id = 0;
  for (let i = from; i < field.length; i++) {
    const digit = (field[i] as number) - DIGIT_0;
    if (digit < 0 || digit > 9) throw corruptField(field, "is not a combination id");
    id = id * 10 + digit;
  }
  return id;
}

/** A projection field's bytes from `from` as a string that tells fields apart, without decoding them. */
export function projectionKeyOf(field: Buffer, from: number): string {
  return field.toString("latin1", from);
}

/** A projection field's value from byte `from`: its UTF-8 text, null for the empty field. */
export function projectionValueOf(field: Buffer, from: number): string | null {
  return projectionValue(field.toString("utf8", from));
}
