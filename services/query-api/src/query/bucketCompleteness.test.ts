import { describe, expect, it } from "vitest";
import { completeCount, completenessAt } from "./bucketCompleteness";

const ends = {
  buckets: [
    { label: "q1", endMs: 100 },
    { label: "q2", endMs: 200 },
    { label: "q3", endMs: 300 },
  ],
};

describe("completeness (docs/contract.md §9 complete)", () => {
  it("counts the buckets that end at or before the instant", () => {
    expect([99, 100, 199, 200, 299, 300, 10_000].map((t) => completeCount(ends, t))).toEqual([
      0, 1, 1, 2, 2, 3, 3,
    ]);
  });

  it("calls nothing complete while no instant is known", () => {
    expect(completeCount(ends, undefined)).toBe(0);
    expect(completeCount(ends, null)).toBe(0);
    expect(completeCount({ buckets: [] }, 500)).toBe(0);
  });

  it("tells each row by its bucket's label", () => {
    const at = completenessAt(ends, 250);
    expect(at.count).toBe(2);
    expect(["q1", "q2", "q3", "not a bucket"].map((label) => at.isComplete(label))).toEqual([
      true,
      true,
      false,
      false,
    ]);
  });
});
