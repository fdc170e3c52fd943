import type { BatchPayload } from "./batchAggregate";
import { LARGE_CELL_BYTES, SMALL_CELL_BYTES, SMALL_CELL_MAX, SUM_FIELDS } from "./sums";

/**
 * The apply script's batch argument, one binary string (layout in the header of
 * `lua/applyBatch-6.lua`). One argument instead of one per id, combination and field: ioredis
 * encodes thousands of small arguments slowly, and the script reads this with `struct.unpack`, in C.
 */
export function encodeBatch(payload: BatchPayload): Buffer {
  const out = new ByteWriter(64 * 1024);
  out.u32(payload.ids.length);
  for (const id of payload.ids) out.str(id);
  out.u32(payload.combos.length);
  for (const combo of payload.combos) out.str(combo);
  out.u32(payload.blocks.length);
  const sumsPerCell = SUM_FIELDS.length;
  for (const [suffix, expireAtMs, isCombos, cells] of payload.blocks) {
    const n = cells.length / (sumsPerCell + 1);
    const small = fitsSmall(cells);
    out.str(suffix);
    out.str(String(expireAtMs));
    out.u8(isCombos);
    out.u8(small ? SMALL_CELL_BYTES : LARGE_CELL_BYTES);
    out.u32(n);
    for (let at = 0; at < cells.length; at += sumsPerCell + 1) {
      if (isCombos) out.u32(cells[at] as number);
      else out.str(cells[at] as string);
    }
    out.reserve(n * (small ? SMALL_CELL_BYTES : LARGE_CELL_BYTES));
    for (let at = 0; at < cells.length; at += sumsPerCell + 1) {
      for (let k = 1; k <= sumsPerCell; k++) {
        if (small) out.u32(cells[at + k] as number);
        else out.f64(cells[at + k] as number);
      }
    }
  }
  return out.done();
}

/** Whether every sum of a block's cells `[field, 7 sums, ...]` fits the small cell form. */
function fitsSmall(cells: ReadonlyArray<string | number>): boolean {
  for (let at = 0; at < cells.length; at += SUM_FIELDS.length + 1) {
    for (let k = 1; k <= SUM_FIELDS.length; k++) if ((cells[at + k] as number) > SMALL_CELL_MAX) return false;
  }
  return true;
}

/** Little-endian writer into a buffer that doubles when full. */
class ByteWriter {
  private buf: Buffer;
  private at = 0;

  constructor(initial: number) {
    this.buf = Buffer.allocUnsafe(initial);
  }

  reserve(bytes: number): void {
    if (this.at + bytes <= this.buf.length) return;
    const grown = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + bytes));
    this.buf.copy(grown, 0, 0, this.at);
    this.buf = grown;
  }

  u8(value: number): void {
    this.reserve(1);
    this.at = this.buf.writeUInt8(value, this.at);
  }

  u32(value: number): void {
    this.reserve(4);
    this.at = this.buf.writeUInt32LE(value, this.at);
  }

  f64(value: number): void {
    this.reserve(8);
    this.at = this.buf.writeDoubleLE(value, this.at);
  }

  /** A 16-bit byte length, then the UTF-8 bytes (every contract string is far below 64 KiB). */
  str(value: string): void {
    this.reserve(2 + 3 * value.length);
    const bytes = this.buf.write(value, this.at + 2, "utf8");
    if (bytes > 0xffff) throw new RangeError(`string of ${bytes} bytes is too long for the batch encoding`);
    this.buf.writeUInt16LE(bytes, this.at);
    this.at += 2 + bytes;
  }

  done(): Buffer {
    return this.buf.subarray(0, this.at);
  }
}
