import { SKETCH_COUNT_MAX, SKETCH_PAIR_BYTES, sketchPairs } from "../format/sketches";
import { LARGE_CELL_BYTES, SMALL_CELL_BYTES, SMALL_CELL_MAX } from "../format/sums";
import { type BatchPayload, FIELD_FORMS } from "./batchAggregate";
import { RECORDING_DIGEST_BYTES, recordingDigest } from "./recordingDigest";

/**
 * The apply script's batch argument, one binary string (layout in the header of
 * `lua/applyBatches.lua`). One argument instead of one per id, combination and field: ioredis
 * encodes thousands of small arguments slowly, and the script reads this with `struct.unpack`, in C.
 */
export function encodeBatch(payload: BatchPayload): Buffer {
  // Most batches are one small organization's few recordings: start within Node's buffer pool
  // (an allocation of its own per batch cost more than the encoding) and grow for large ones.
  const out = new ByteWriter(2048);
  out.u32(payload.ids.length);
  out.reserve(RECORDING_DIGEST_BYTES * payload.ids.length);
  for (const id of payload.ids) out.bytes(recordingDigest(id));
  out.u32(payload.combos.length);
  for (const { key, values } of payload.combos) {
    out.str(key);
    // A language model is never empty (docs/contract.md §1), so "" unambiguously stands for null.
    for (const value of values) out.str(value ?? "");
  }
  // A block of sketches none of whose recordings had a time has no field: nothing to write.
  const blocks = payload.blocks.filter((block) => block.fields.length > 0);
  out.u32(blocks.length);
  for (const { suffix, prefix, expireAtMs, fieldForm, fields, sums, sketches } of blocks) {
    const small = fitsSmall(sums);
    out.str(suffix);
    out.str(prefix);
    out.str(String(expireAtMs));
    out.u8(fieldForm);
    out.u8(sketches ? SKETCH_CELLS : small ? SMALL_CELL_BYTES : LARGE_CELL_BYTES);
    out.u32(fields.length);
    if (fieldForm !== FIELD_FORMS.literal) for (const field of fields) out.u32(field as number);
    else for (const field of fields) out.str(field as string);
    if (sketches) for (const keys of sketches) out.sketchCell(sketchPairs(keys));
    else if (small) out.u32s(sums);
    else out.f64s(sums);
  }
  return out.done();
}

/**
 * The cell width that marks a block of sketch cells (format/sketches.ts), each a u16 number of
 * pairs and the pairs as stored: not a sums cell's width.
 */
export const SKETCH_CELLS = 0;

/** Whether every sum fits the small cell form. */
function fitsSmall(sums: readonly number[]): boolean {
  for (const sum of sums) if (sum > SMALL_CELL_MAX) return false;
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

  u32s(values: readonly number[]): void {
    this.reserve(4 * values.length);
    for (const value of values) this.at = this.buf.writeUInt32LE(value, this.at);
  }

  f64s(values: readonly number[]): void {
    this.reserve(8 * values.length);
    for (const value of values) this.at = this.buf.writeDoubleLE(value, this.at);
  }

  /** A sketch cell: a u16 number of pairs, then each pair's u16 key and u32 count. */
  sketchCell(pairs: readonly number[]): void {
    const n = pairs.length / 2;
    if (n > 0xffff) throw new RangeError(`a sketch cell of ${n} pairs is too long for the batch encoding`);
    this.reserve(2 + SKETCH_PAIR_BYTES * n);
    this.at = this.buf.writeUInt16LE(n, this.at);
    for (let i = 0; i < pairs.length; i += 2) {
      const count = pairs[i + 1] as number;
      if (count > SKETCH_COUNT_MAX) throw new RangeError(`a sketch count of ${count} is too large`);
      this.at = this.buf.writeUInt16LE(pairs[i] as number, this.at);
      this.at = this.buf.writeUInt32LE(count, this.at);
    }
  }

  /** Raw bytes, no length: for fixed-size fields. */
  bytes(value: Buffer): void {
    this.reserve(value.length);
    this.at += value.copy(this.buf, this.at);
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
