import { describe, expect, it } from "vitest";
import { addPacked, emptySums, packSums, unpackSums } from "./sums";

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
    expect(unpackSums(packSums(s))).toEqual(s);
  });

  it("adds stored cells into an accumulator and rejects malformed ones", () => {
    const acc = emptySums();
    addPacked(acc, "1,2,3,4,5,6,7");
    addPacked(acc, "10,20,30,40,50,60,70");
    expect(packSums(acc)).toBe("11,22,33,44,55,66,77");
    expect(() => addPacked(emptySums(), "1,2,3")).toThrow(/malformed/);
    expect(() => addPacked(emptySums(), "1,2,3,4,5,6,7,8")).toThrow(/malformed/);
  });
});
