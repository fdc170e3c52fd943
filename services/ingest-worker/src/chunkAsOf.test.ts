import { describe, expect, it } from "vitest";
import { chunkAsOf } from "./batchHandler";

// docs/contract.md §7 `X-Data-As-Of`: the instant up to which a partition is complete once a chunk
// of a batch is applied.
const fetchedAtMs = Date.parse("2026-11-25T12:00:00.000Z");
const message = (iso: string) => ({ timestamp: String(Date.parse(iso)) });

describe("a partition's as-of instant after a chunk", () => {
  it("is the instant the batch was taken up when the chunk reaches the high watermark reported with it", () => {
    expect(
      chunkAsOf({
        throughOffset: "99",
        highWatermark: "100",
        fetchedAtMs,
        firstNotApplied: undefined,
        lastApplied: message("2026-11-25T11:00:00Z"),
      }),
    ).toBe(fetchedAtMs);
  });

  it("is 1 ms before the first message not yet applied when the partition is behind", () => {
    expect(
      chunkAsOf({
        throughOffset: "4999",
        highWatermark: "12000",
        fetchedAtMs,
        firstNotApplied: message("2026-11-25T11:30:00.500Z"),
        lastApplied: message("2026-11-25T11:30:00.400Z"),
      }),
    ).toBe(Date.parse("2026-11-25T11:30:00.499Z"));
  });

  it("is the last applied message's timestamp when the next one is not in the batch", () => {
    expect(
      chunkAsOf({
        throughOffset: "4999",
        highWatermark: "12000",
        fetchedAtMs,
        firstNotApplied: undefined,
        lastApplied: message("2026-11-25T11:30:00.400Z"),
      }),
    ).toBe(Date.parse("2026-11-25T11:30:00.400Z"));
  });

  it("is never later than the batch was taken up, and unknown without a usable timestamp", () => {
    const behind = { throughOffset: "10", highWatermark: "50", fetchedAtMs };
    expect(
      chunkAsOf({ ...behind, firstNotApplied: message("2027-01-01T00:00:00Z"), lastApplied: undefined }),
    ).toBe(fetchedAtMs);
    expect(
      chunkAsOf({ ...behind, firstNotApplied: { timestamp: "-1" }, lastApplied: { timestamp: "" } }),
    ).toBe(undefined);
  });
});
