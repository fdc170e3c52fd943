import type { RecordingCompleted } from "@vu/events";
/**
 * The integer sums one rollup cell keeps for one combination of dimensions in one block, in their
 * stored order: the one declaration of the sums. Every metric of the API is derived from these
 * exactly; no float is ever stored. The apply script's cell forms derive from this list
 * (luaConstants.ts).
 */
export const SUM_FIELDS = [
  "count",
  "words",
  "durationMs",
  "voiceMsSum",
  "voiceMsCount",
  "llmMsSum",
  "llmMsCount",
] as const;
export type SumField = (typeof SUM_FIELDS)[number];

/** What one recording adds to each sum: a missing processing time adds to neither its sum nor its count. */
export const SUM_OF_RECORDING: Readonly<Record<SumField, (event: RecordingCompleted) => number>> = {
  count: () => 1,
  words: (e) => e.word_count,
  durationMs: (e) => e.duration_ms,
  voiceMsSum: (e) => e.voice_processing_ms ?? 0,
  voiceMsCount: (e) => (e.voice_processing_ms === null ? 0 : 1),
  llmMsSum: (e) => e.llm_processing_ms ?? 0,
  llmMsCount: (e) => (e.llm_processing_ms === null ? 0 : 1),
};

export type Sums = Record<SumField, number>;

/** Zero for every sum: what `emptySums` copies (a literal-shaped object copies in one step). */
const ZERO_SUMS = Object.fromEntries(SUM_FIELDS.map((field) => [field, 0])) as Sums;

export function emptySums(): Sums {
  return { ...ZERO_SUMS };
}

/** The sums stored from `at` in `values`, in SUM_FIELDS order (a row's, an accumulator's). */
export function sumsFromSlots(values: ArrayLike<number>, at: number): Sums {
  const sums = emptySums();
  for (let k = 0; k < SUM_FIELDS.length; k++) sums[SUM_FIELDS[k] as SumField] = values[at + k] as number;
  return sums;
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

/** A little-endian u32 from four bytes: no bounds-checked call, no allocation (the read path's hot loop). */
function u32(b: Buffer, at: number): number {
  return (
    ((b[at] as number) | ((b[at + 1] as number) << 8) | ((b[at + 2] as number) << 16)) +
    (b[at + 3] as number) * 0x1000000
  );
}

/**
 * Adds a stored cell (either form) `sign` times into `into[at]`..`into[at + 6]`, in SUM_FIELDS'
 * order: the one reader of a cell's bytes (summing a question, read/cellAccumulator.ts, uses it).
 * Integers stay exact: every sum is below 2^53, and subtracting a cell gives back what was added.
 */
export function addPackedSlots(into: Float64Array, at: number, packed: Buffer, sign: number): void {
  const width = SUM_FIELDS.length;
  if (packed.length === SMALL_CELL_BYTES) {
    for (let k = 0; k < width; k++) into[at + k] = (into[at + k] as number) + sign * u32(packed, 4 * k);
  } else if (packed.length === LARGE_CELL_BYTES) {
    for (let k = 0; k < width; k++)
      into[at + k] = (into[at + k] as number) + sign * packed.readDoubleLE(8 * k);
  } else {
    throw new Error(`malformed rollup cell: ${packed.length} bytes`);
  }
}

/** Adds a stored cell (either form) into a record of sums: for tests and tools. */
export function addPacked(into: Sums, packed: Buffer): Sums {
  const slots = new Float64Array(SUM_FIELDS.length);
  addPackedSlots(slots, 0, packed, 1);
  SUM_FIELDS.forEach((field, i) => {
    into[field] += slots[i] as number;
  });
  return into;
}

export function unpackSums(packed: Buffer): Sums {
  return addPacked(emptySums(), packed);
}
