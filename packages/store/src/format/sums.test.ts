import { describe, expect, it } from "vitest";
import {
  addPacked,
  addPackedSlots,
  emptySums,
  LARGE_CELL_BYTES,
  packSums,
  SMALL_CELL_BYTES,
  SUM_FIELDS,
  sumsFromSlots,
  unpackSums,
} from "./sums";

describe("sums as objects", () => {
  it("makes a new zero object each time, so filling one leaves the next at zero", () => {
    const first = emptySums();
    first.count = 5;
    expect(emptySums()).toEqual(Object.fromEntries(SUM_FIELDS.map((field) => [field, 0])));
  });

  it("reads seven slots from an offset in SUM_FIELDS order", () => {
    const slots = Float64Array.from({ length: 10 }, (_, i) => i * 10);
    expect(Object.values(sumsFromSlots(slots, 2))).toEqual([20, 30, 40, 50, 60, 70, 80]);
    expect(Object.keys(sumsFromSlots(slots, 0))).toEqual([...SUM_FIELDS]);
  });
});

describe("packed sums", () => {
  it("round-trips large exact integers", () => {
    const s = {
      count: 9,
      words: 123_456_789_012,
      durationMs: 2 ** 53 - 1,
      voiceMsSum: 0,
      voiceMsCount: 0,
      llmMsSum: 7,
      llmMsCount: 1,
    };
    expect(packSums(s)).toHaveLength(LARGE_CELL_BYTES);
    expect(unpackSums(packSums(s))).toEqual(s);
  });

  it("stores sums that all fit 32 bits in the small form, exactly up to 2^32 - 1", () => {
    const s = { ...emptySums(), count: 1, words: 2 ** 32 - 1, durationMs: 60_000 };
    expect(packSums(s)).toHaveLength(SMALL_CELL_BYTES);
    expect(unpackSums(packSums(s))).toEqual(s);
    expect(packSums({ ...s, words: 2 ** 32 })).toHaveLength(LARGE_CELL_BYTES);
    expect(unpackSums(packSums({ ...s, words: 2 ** 32 })).words).toBe(2 ** 32);
  });

  it("adds stored cells into an accumulator and rejects malformed ones", () => {
    const cell = (...v: number[]) => Buffer.from(new Float64Array(v).buffer);
    const acc = emptySums();
    addPacked(acc, cell(1, 2, 3, 4, 5, 6, 7));
    addPacked(acc, cell(10, 20, 30, 40, 50, 60, 70));
    const small = Buffer.from(new Uint32Array([100, 200, 300, 400, 500, 600, 700]).buffer);
    addPacked(acc, small);
    expect(unpackSums(packSums(acc))).toEqual({
      count: 111,
      words: 222,
      durationMs: 333,
      voiceMsSum: 444,
      voiceMsCount: 555,
      llmMsSum: 666,
      llmMsCount: 777,
    });
    expect(() => addPacked(emptySums(), cell(1, 2, 3))).toThrow(/malformed/);
    expect(() => addPacked(emptySums(), Buffer.from("1,2,3,4,5,6,7"))).toThrow(/malformed/);
  });

  it("adds cells of both forms with a sign into slots from an offset, leaving the others alone", () => {
    const slots = new Float64Array(16).fill(1);
    addPackedSlots(slots, 2, packSums({ ...emptySums(), count: 3, words: 2 ** 32 - 1 }), 1);
    addPackedSlots(slots, 2, packSums({ ...emptySums(), count: 1, llmMsCount: 2 ** 40 }), -1);
    expect(Array.from(slots)).toEqual([1, 1, 3, 2 ** 32, 1, 1, 1, 1, 1 - 2 ** 40, 1, 1, 1, 1, 1, 1, 1]);
    expect(() => addPackedSlots(slots, 0, Buffer.alloc(27), 1)).toThrow(/malformed rollup cell: 27 bytes/);
  });
});
