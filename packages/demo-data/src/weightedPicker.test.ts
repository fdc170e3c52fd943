import { describe, expect, it } from "vitest";
import { createWeightedPicker, zipfWeights } from "./weightedPicker";

describe("createWeightedPicker", () => {
  it("maps the unit interval onto indexes in proportion to their weights, skipping zero weights", () => {
    const pick = createWeightedPicker([1, 0, 3]);
    expect([0, 0.24, 0.25, 0.5, 0.999].map(pick)).toEqual([0, 0, 2, 2, 2]);
  });

  it("refuses weights that cannot be sampled", () => {
    expect(() => createWeightedPicker([])).toThrow(RangeError);
    expect(() => createWeightedPicker([0, 0])).toThrow(RangeError);
    expect(() => createWeightedPicker([1, -1])).toThrow(RangeError);
    expect(() => createWeightedPicker([Number.NaN])).toThrow(RangeError);
  });
});

describe("zipfWeights", () => {
  it("decreases with rank", () => {
    expect(zipfWeights(3, 1)).toEqual([1, 1 / 2, 1 / 3]);
  });
});
