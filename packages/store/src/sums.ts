/**
 * The integer sums one rollup cell keeps for one combination of dimensions in one block. Every
 * metric of the API is derived from these exactly; no float is ever stored.
 */
export interface Sums {
  count: number;
  words: number;
  durationMs: number;
  voiceMsSum: number;
  voiceMsCount: number;
  llmMsSum: number;
  llmMsCount: number;
}

export const SUM_FIELDS = [
  "count",
  "words",
  "durationMs",
  "voiceMsSum",
  "voiceMsCount",
  "llmMsSum",
  "llmMsCount",
] as const satisfies ReadonlyArray<keyof Sums>;

export function emptySums(): Sums {
  return { count: 0, words: 0, durationMs: 0, voiceMsSum: 0, voiceMsCount: 0, llmMsSum: 0, llmMsCount: 0 };
}

/** Adds `b` into `a` (mutates `a`, the accumulator). */
export function addSums(a: Sums, b: Sums): Sums {
  a.count += b.count;
  a.words += b.words;
  a.durationMs += b.durationMs;
  a.voiceMsSum += b.voiceMsSum;
  a.voiceMsCount += b.voiceMsCount;
  a.llmMsSum += b.llmMsSum;
  a.llmMsCount += b.llmMsCount;
  return a;
}

/**
 * Stored cells are binary, so the apply script adds them with `struct` in C instead of parsing and
 * formatting text in Lua: seven little-endian u32 (28 bytes) while every sum fits, else seven
 * float64 (56 bytes, exact integers up to 2^53). The length tells which.
 */
export const SMALL_CELL_BYTES = 4 * SUM_FIELDS.length;
export const LARGE_CELL_BYTES = 8 * SUM_FIELDS.length;
/** The largest sum the small form holds. */
export const SMALL_CELL_MAX = 0xffff_ffff;

export function packSums(s: Sums): Buffer {
  const values = SUM_FIELDS.map((f) => s[f]);
  const small = values.every((v) => v <= SMALL_CELL_MAX);
  const packed = Buffer.allocUnsafe(small ? SMALL_CELL_BYTES : LARGE_CELL_BYTES);
  values.forEach((v, i) => {
    if (small) packed.writeUInt32LE(v, 4 * i);
    else packed.writeDoubleLE(v, 8 * i);
  });
  return packed;
}

/**
 * Adds a stored cell into an accumulator `sign` times (−1 subtracts it: a signed cover) without
 * allocating an intermediate object. Unrolled per form on purpose: it runs for every cell a query
 * reads. Integers stay exact: every sum is below 2^53.
 */
export function addPacked(into: Sums, packed: Buffer, sign = 1): Sums {
  if (packed.length === SMALL_CELL_BYTES) {
    into.count += sign * packed.readUInt32LE(0);
    into.words += sign * packed.readUInt32LE(4);
    into.durationMs += sign * packed.readUInt32LE(8);
    into.voiceMsSum += sign * packed.readUInt32LE(12);
    into.voiceMsCount += sign * packed.readUInt32LE(16);
    into.llmMsSum += sign * packed.readUInt32LE(20);
    into.llmMsCount += sign * packed.readUInt32LE(24);
  } else if (packed.length === LARGE_CELL_BYTES) {
    into.count += sign * packed.readDoubleLE(0);
    into.words += sign * packed.readDoubleLE(8);
    into.durationMs += sign * packed.readDoubleLE(16);
    into.voiceMsSum += sign * packed.readDoubleLE(24);
    into.voiceMsCount += sign * packed.readDoubleLE(32);
    into.llmMsSum += sign * packed.readDoubleLE(40);
    into.llmMsCount += sign * packed.readDoubleLE(48);
  } else {
    throw new Error(`malformed rollup cell: ${packed.length} bytes`);
  }
  return into;
}

export function unpackSums(packed: Buffer): Sums {
  return addPacked(emptySums(), packed);
}
