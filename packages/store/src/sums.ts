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

/** The stored form of a cell: seven decimal integers joined by commas (see the store README). */
export function packSums(s: Sums): string {
  return SUM_FIELDS.map((f) => s[f]).join(",");
}

/** Adds a stored cell into an accumulator without allocating an intermediate object. */
export function addPacked(into: Sums, packed: string): Sums {
  let field = 0;
  let value = 0;
  for (let i = 0; i <= packed.length; i++) {
    const code = i < packed.length ? packed.charCodeAt(i) : 44;
    if (code === 44) {
      const key = SUM_FIELDS[field];
      if (key === undefined) throw new Error(`malformed rollup cell: ${packed}`);
      into[key] += value;
      field++;
      value = 0;
    } else {
      value = value * 10 + (code - 48);
    }
  }
  if (field !== SUM_FIELDS.length) throw new Error(`malformed rollup cell: ${packed}`);
  return into;
}

export function unpackSums(packed: string): Sums {
  return addPacked(emptySums(), packed);
}
