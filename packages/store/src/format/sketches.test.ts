import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  addSketchCell,
  bucketEstimate,
  bucketKey,
  LLM_KEY_FLAG,
  mergeSketches,
  nearestRank,
  type PercentileSketch,
  SKETCH_ACCURACY,
  SKETCH_PAIR_BYTES,
  SketchCounts,
  sketchKey,
  sketchPairs,
} from "./sketches";

/** The exact nearest-rank percentile of whole-millisecond values (docs/contract.md §9). */
function exactPercentile(values: readonly number[], q: number): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  // q × n / 100 of exact integers: exact when whole, never rounded across a whole number otherwise.
  return sorted[Math.ceil((q * sorted.length) / 100) - 1] as number;
}

function sketchOf(voice: readonly number[], llm: readonly number[] = []): PercentileSketch {
  const counts = new SketchCounts();
  for (const v of voice) counts.add(sketchKey("voice", v), 1);
  for (const v of llm) counts.add(sketchKey("llm", v), 1);
  return counts.sketch();
}

/** A sketch cell as the store keeps it, from pairs. */
function storedCell(pairs: readonly number[]): Buffer {
  const cell = Buffer.alloc((pairs.length / 2) * SKETCH_PAIR_BYTES);
  for (let i = 0; i < pairs.length; i += 2) {
    cell.writeUInt16LE(pairs[i] as number, (i / 2) * SKETCH_PAIR_BYTES);
    cell.writeUInt32LE(pairs[i + 1] as number, (i / 2) * SKETCH_PAIR_BYTES + 2);
  }
  return cell;
}

describe("sketch buckets", () => {
  it("keep 0 apart and give every whole millisecond below 1/a back exactly", () => {
    expect(bucketKey(0)).toBe(0);
    expect(bucketEstimate(bucketKey(0))).toBe(0);
    for (let v = 1; v <= 50; v++) expect(bucketEstimate(bucketKey(v))).toBe(v);
  });

  it("put a value in the bucket whose edges hold it, and estimate within a of it", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: Number.MAX_SAFE_INTEGER }), (v) => {
        const estimate = bucketEstimate(bucketKey(v));
        expect(Math.abs(estimate - v)).toBeLessThanOrEqual(SKETCH_ACCURACY * v);
      }),
      { numRuns: 2000 },
    );
    for (const v of [1, 2, 49, 50, 51, 99, 100, 101, 999, 1000, 1001, 65_535, 3_600_000, 2 ** 40])
      expect(Math.abs(bucketEstimate(bucketKey(v)) - v)).toBeLessThanOrEqual(SKETCH_ACCURACY * v);
  });

  it("order keys by value, voice keys before every LLM key", () => {
    expect(bucketKey(10)).toBeLessThan(bucketKey(11));
    expect(bucketKey(1000)).toBeLessThan(bucketKey(1021));
    expect(sketchKey("voice", 2 ** 52)).toBeLessThan(sketchKey("llm", 0));
    expect(sketchKey("llm", 7) & ~LLM_KEY_FLAG).toBe(bucketKey(7));
  });

  it("refuse values no recording has", () => {
    expect(() => bucketKey(-1)).toThrow(RangeError);
    expect(() => bucketKey(0.5)).toThrow(RangeError);
    expect(() => bucketKey(Number.NaN)).toThrow(RangeError);
  });
});

describe("nearest rank", () => {
  it("is ⌈q/100 × n⌉ in exact integers", () => {
    expect(nearestRank(7, 100)).toBe(7);
    expect(nearestRank(50, 1)).toBe(1);
    expect(nearestRank(1, 1)).toBe(1);
    expect(nearestRank(99, 100)).toBe(99);
    expect(nearestRank(95, 21)).toBe(20);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 99 }), fc.integer({ min: 1, max: 10_000_000 }), (q, n) => {
        const rank = nearestRank(q, n);
        expect(rank * 100).toBeGreaterThanOrEqual(q * n);
        expect((rank - 1) * 100).toBeLessThan(q * n);
      }),
    );
  });
});

describe("PercentileSketch", () => {
  it("is within 1 % of the exact nearest-rank percentile on random data (property)", () => {
    const times = fc.array(
      fc.oneof(fc.integer({ min: 0, max: 100 }), fc.integer({ min: 0, max: 10_000_000 })),
      { maxLength: 300 },
    );
    fc.assert(
      fc.property(times, times, fc.integer({ min: 1, max: 99 }), (voice, llm, q) => {
        const sketch = sketchOf(voice, llm);
        for (const [time, values] of [
          ["voice", voice],
          ["llm", llm],
        ] as const) {
          const exact = exactPercentile(values, q);
          const got = sketch.percentile(time, q);
          if (exact === null) expect(got).toBeNull();
          else {
            expect(got).not.toBeNull();
            expect(Math.abs((got as number) - exact)).toBeLessThanOrEqual(0.01 * exact);
          }
          expect(sketch.count(time)).toBe(values.length);
          // All asked at once (ascending), the same values in one walk.
          const asked = [1, q, 50, 95, 99].filter((v, i, all) => all.indexOf(v) === i).sort((a, b) => a - b);
          expect(sketch.percentiles(time, asked)).toEqual(
            asked.map((p) => sketch.percentile(time, p) ?? Number.NaN),
          );
        }
      }),
      { numRuns: 500 },
    );
  });

  it("is null with no value of the time, exact on small values", () => {
    const sketch = sketchOf([3, 1, 2, 0, 4]);
    expect(sketch.percentile("llm", 50)).toBeNull();
    expect(sketch.percentile("voice", 50)).toBe(2);
    expect(sketch.percentile("voice", 1)).toBe(0);
    expect(sketch.percentile("voice", 99)).toBe(4);
    expect(sketch.percentile("voice", 80)).toBe(3);
  });

  it("adds and subtracts: a merge is the sketch of all values, a cancelled block leaves nothing", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 1_000_000 }), { maxLength: 100 }),
        fc.array(fc.integer({ min: 0, max: 1_000_000 }), { maxLength: 100 }),
        (a, b) => {
          expect(mergeSketches([sketchOf(a), undefined, sketchOf(b)])).toEqual(sketchOf([...a, ...b]));
        },
      ),
    );
    const counts = new SketchCounts();
    const cell = storedCell(sketchPairs([sketchKey("voice", 5), sketchKey("voice", 5), sketchKey("llm", 9)]));
    const other = storedCell(sketchPairs([sketchKey("voice", 700)]));
    addSketchCell(counts, cell, 1);
    addSketchCell(counts, other, 1);
    addSketchCell(counts, cell, -1);
    expect(counts.sketch()).toEqual(sketchOf([700]));
  });

  it("gives a projection's cell the sketch its combinations' cells add up to (docs/decisions/0029)", () => {
    // A total or dimension cell is counted from all its recordings' keys at once; read from it or
    // from the combination cells it sums, a row must get the same sketch, also under a signed cover.
    fc.assert(
      fc.property(
        fc.array(fc.array(fc.integer({ min: 0, max: 400_000 }), { maxLength: 30 }), { maxLength: 6 }),
        fc.array(fc.integer({ min: 0, max: 400_000 }), { maxLength: 30 }),
        (combos, removed) => {
          const keysOf = (values: readonly number[]) => values.map((v) => sketchKey("voice", v));
          const fromCombos = new SketchCounts();
          for (const values of [...combos, removed])
            addSketchCell(fromCombos, storedCell(sketchPairs(keysOf(values))), 1);
          addSketchCell(fromCombos, storedCell(sketchPairs(keysOf(removed))), -1);
          const fromProjection = new SketchCounts();
          const all = [...combos.flat(), ...removed];
          addSketchCell(fromProjection, storedCell(sketchPairs(keysOf(all))), 1);
          addSketchCell(fromProjection, storedCell(sketchPairs(keysOf(removed))), -1);
          expect(fromProjection.sketch()).toEqual(fromCombos.sketch());
          expect(fromProjection.sketch()).toEqual(sketchOf(combos.flat()));
        },
      ),
    );
  });

  it("reads stored cells: pairs in key order, counts beyond 16 bits, and refuses a torn cell", () => {
    expect(sketchPairs([9, 3, 9, 3, 3])).toEqual([3, 3, 9, 2]);
    const counts = new SketchCounts();
    addSketchCell(counts, storedCell([sketchKey("voice", 42), 3_000_000_000]), 1);
    expect(counts.sketch().count("voice")).toBe(3_000_000_000);
    expect(() => addSketchCell(counts, Buffer.alloc(SKETCH_PAIR_BYTES + 1), 1)).toThrow(/malformed/);
  });
});
