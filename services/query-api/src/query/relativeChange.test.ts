import { emptySums } from "@vu/store";
import { describe, expect, it } from "vitest";
import { relativeChange, summaryChange } from "./rowMetrics";

describe("relativeChange (docs/contract.md §7 compare)", () => {
  it("is (current − previous) ÷ previous of the exact fractions, 3 decimals, halves away from zero", () => {
    expect(relativeChange([3n, 1n], [1n, 1n])).toBe(2);
    expect(relativeChange([450n, 1n], [600n, 1n])).toBe(-0.25);
    expect(relativeChange([400n, 1n], [450n, 1n])).toBe(-0.111);
    // ±1/2000 exactly: an exact half rounds away from zero on both sides.
    expect(relativeChange([2001n, 1n], [2000n, 1n])).toBe(0.001);
    expect(relativeChange([1999n, 1n], [2000n, 1n])).toBe(-0.001);
    // From the fractions, not from values rounded first: 1/3 against 1/4 is +33.3 %.
    expect(relativeChange([1n, 3n], [1n, 4n])).toBe(0.333);
  });

  it("is null when the previous value is 0; a current average over nothing counts as 0", () => {
    expect(relativeChange([5n, 1n], [0n, 1n])).toBeNull();
    expect(relativeChange([5n, 1n], [0n, 0n])).toBeNull();
    expect(relativeChange([0n, 0n], [7n, 2n])).toBe(-1);
  });

  it("gives every summary field, in the summary's order", () => {
    const now = { ...emptySums(), count: 2, words: 30, durationMs: 120_000, llmMsSum: 900, llmMsCount: 2 };
    const before = { ...emptySums(), count: 1, words: 40, durationMs: 60_000 };
    expect(summaryChange(now, before)).toEqual({
      total_recordings: 1,
      total_duration_minutes: 1,
      total_words: -0.25,
      avg_llm_processing_seconds: null,
      avg_voice_processing_seconds: null,
    });
  });

  it("adds active_members' change last when members are counted (docs/contract.md §9)", () => {
    const none = emptySums();
    const change = summaryChange(none, none, { current: 3, previous: 4 });
    expect(Object.keys(change).at(-1)).toBe("active_members");
    expect(change.active_members).toBe(-0.25);
    expect(summaryChange(none, none, { current: 3, previous: 0 }).active_members).toBeNull();
    expect(summaryChange(none, none)).not.toHaveProperty("active_members");
  });
});
