import { describe, expect, it } from "vitest";
import { gapOf, replayTargets, resumeOffset, trimmedPartitions } from "./topicGaps";

describe("topic gaps", () => {
  it("finds a checkpoint below the topic's first offset or past its end, never one inside", () => {
    expect(gapOf(0, "3", "5", "9")).toMatch(/no longer holds offsets 3-4/);
    expect(gapOf(0, "12", "5", "9")).toMatch(/applied up to offset 11 but the topic ends at 9/);
    expect(gapOf(0, "5", "5", "9")).toBeUndefined();
    expect(gapOf(0, "9", "5", "9")).toBeUndefined();
    expect(gapOf(0, null, "5", "9")).toBeUndefined();
  });

  it("resumes at the nearest offset the topic holds", () => {
    expect([resumeOffset(null, "5", "9"), resumeOffset("3", "5", "9"), resumeOffset("12", "5", "9")]).toEqual(
      ["5", "5", "9"],
    );
    expect(resumeOffset("7", "5", "9")).toBe("7");
  });

  it("replays the partitions that hold messages, and names those trimmed", () => {
    const offsets = [
      { partition: 0, offset: "9", low: "0", high: "9" },
      { partition: 1, offset: "4", low: "4", high: "4" },
      { partition: 2, offset: "8", low: "2", high: "8" },
    ];
    expect(replayTargets("t", offsets)).toEqual(
      new Map([
        ["t:0", "9"],
        ["t:2", "8"],
      ]),
    );
    expect(trimmedPartitions(offsets)).toEqual([1, 2]);
  });
});
