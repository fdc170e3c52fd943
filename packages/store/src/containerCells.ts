import { FIELD_SEPARATOR } from "./blockPlacement";

/**
 * One block's cells as read: flat `[field, packed sums (see sums.ts), field, ...]`, both as the
 * reply's bytes. Field names are not decoded here: the query decodes each distinct one once.
 */
export type StoredCells = Buffer[];

const SEPARATOR = FIELD_SEPARATOR.charCodeAt(0);

/**
 * A container's cells (an HGETALL reply, `[field, cell, ...]`) grouped by the block they belong
 * to: block index → that block's cells with its `<index>:` cut from every field (a view on the
 * reply's bytes, not a copy), as a block key of its own would hold them.
 */
export function cellsByBlock(reply: readonly Buffer[]): Map<number, StoredCells> {
  const blocks = new Map<number, StoredCells>();
  for (let i = 0; i + 1 < reply.length; i += 2) {
    const field = reply[i] as Buffer;
    const at = field.indexOf(SEPARATOR);
    if (at <= 0) throw new Error(`container field ${JSON.stringify(field.toString())} has no block index`);
    const index = Number(field.toString("latin1", 0, at));
    let cells = blocks.get(index);
    if (cells === undefined) {
      cells = [];
      blocks.set(index, cells);
    }
    cells.push(field.subarray(at + 1), reply[i + 1] as Buffer);
  }
  return blocks;
}
