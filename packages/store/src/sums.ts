import type { RecordingCompleted } from "@vu/events";
/**
 * The integer sums one rollup cell keeps for one combination of dimensions in one block, in their
 * stored order: the one declaration of the sums. Every metric of the API is derived from these
 * exactly; no float is ever stored. The apply script's cell forms are held to this list by
 * vocabulary.test.ts.
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

export function emptySums(): Sums {
  return Object.fromEntries(SUM_FIELDS.map((field) => [field, 0])) as Sums;
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
 * Adds a stored cell (either form) into an accumulator. For tests and tools: the query sums cells
 * in services/query-api/src/query/cellAccumulator.ts. Integers stay exact: every sum is below 2^53.
 */
export function addPacked(into: Sums, packed: Buffer): Sums {
  const small = packed.length === SMALL_CELL_BYTES;
  if (!small && packed.length !== LARGE_CELL_BYTES) {
    throw new Error(`malformed rollup cell: ${packed.length} bytes`);
  }
  SUM_FIELDS.forEach((field, i) => {
    into[field] += small ? packed.readUInt32LE(4 * i) : packed.readDoubleLE(8 * i);
  });
  return into;
}

export function unpackSums(packed: Buffer): Sums {
  return addPacked(emptySums(), packed);
}
