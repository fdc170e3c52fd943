import type { Batch } from "kafkajs";
import { describe, expect, it } from "vitest";
import { chunkAsOf, fetchRequestedAt } from "./batchHandler";

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

  it("is taken when the batch's fetch request left, not when the batch is taken up, on the worker's clock", () => {
    const wall = Date.parse("2026-11-25T12:00:05.000Z");
    const batch = { fetchRequestedAt: wall - 3_000 } as unknown as Batch;
    // The batch waited 3 s behind others: its as-of is 3 s before the worker's now.
    expect(fetchRequestedAt(batch, fetchedAtMs, wall)).toBe(fetchedAtMs - 3_000);
    // A worker whose clock is an hour behind the wall clock: the same 3 s on its own clock.
    expect(fetchRequestedAt(batch, fetchedAtMs - 3_600_000, wall)).toBe(fetchedAtMs - 3_603_000);
    // No stamp (an unpatched client): the instant the batch is taken up.
    expect(fetchRequestedAt({} as Batch, fetchedAtMs, wall)).toBe(fetchedAtMs);
  });
});
