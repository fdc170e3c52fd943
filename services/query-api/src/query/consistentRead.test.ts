import type { BlockRef, BlockSnapshot, OrganizationExtent, ReadOptions, RollupReader } from "@vu/store";
import { DEFAULT_RETENTION } from "@vu/time-buckets";
import { describe, expect, it } from "vitest";
import type { DataExtent, PlanContext } from "../planner";
import { dataExtentOf, readConsistently } from "./consistentRead";

const now = Date.parse("2026-11-22T12:00:00Z");
const DAY = 86_400_000;

describe("dataExtentOf", () => {
  it("reads from the first recording to the later of the last one and now + 24 h", () => {
    expect(dataExtentOf({ firstMs: 5, lastMs: now - DAY }, now)).toEqual({ startMs: 5, endMs: now + DAY });
    expect(dataExtentOf({ firstMs: 5, lastMs: now + 2 * DAY }, now)).toEqual({
      startMs: 5,
      endMs: now + 2 * DAY + 1,
    });
  });

  it("reads nothing without data, and everything for data older than the extent", () => {
    expect(dataExtentOf(null, now)).toEqual({ startMs: 0, endMs: 0 });
    expect(dataExtentOf("unknown", now)).toBeUndefined();
  });
});

/**
 * A reader whose extent is `first` before the plan and then each of `during` in turn; with `hint`,
 * its recent reads remember that extent.
 */
function fakeReader(first: OrganizationExtent, during: OrganizationExtent[], hint?: OrganizationExtent) {
  const reads: number[] = [];
  const extentReads: number[] = [];
  const confirming: unknown[] = [];
  const reader = {
    view: async () => ({ generation: 1, epoch: "e1" }),
    confirm: async () => {
      throw new Error("the read confirms the view itself");
    },
    extent: async () => {
      extentReads.push(1);
      return first;
    },
    recentExtent: () => hint,
    async readBlocks(
      _g: number,
      _o: string,
      blocks: readonly BlockRef[],
      _p: unknown,
      options?: ReadOptions,
    ): Promise<BlockSnapshot> {
      reads.push(blocks.length);
      confirming.push(options?.confirming);
      // A read of no cells: it sums nothing.
      return { extent: during.shift() ?? first, stamp: null, sketched: true, *sumBuckets() {} };
    },
    dimensions: async () => ({ member_email: [], voice_model: [], language_model: [], app_name: [] }),
    dimensionsAtStamp: async () => ({
      values: { member_email: [], voice_model: [], language_model: [], app_name: [] },
      stamp: null,
    }),
    writeStamp: async () => null,
  } as RollupReader;
  return { reader, reads, extentReads, confirming };
}

function run(reader: RollupReader) {
  const planned: DataExtent[] = [];
  const context: PlanContext = { now, retention: DEFAULT_RETENTION };
  const promise = readConsistently({
    reader,
    context,
    org: "acme",
    projection: "total",
    read: {},
    // One block per day of extent, ten when unbounded: enough to tell the plans apart.
    plan: (c) => {
      planned.push(c.dataExtent);
      const days =
        c.dataExtent === undefined
          ? 10
          : Math.max(0, Math.round((c.dataExtent.endMs - c.dataExtent.startMs) / DAY));
      return {
        plan: c.dataExtent,
        blocks: Array.from({ length: Math.min(days, 1000) }, () => ({ tier: "day" as const, startMs: 0 })),
      };
    },
  });
  return { promise, planned };
}

describe("readConsistently", () => {
  it("plans from a recent extent without reading it first: one round trip", async () => {
    const extent = { firstMs: now - 3 * DAY, lastMs: now };
    const fake = fakeReader(extent, [extent], extent);
    await run(fake.reader).promise;
    expect(fake.extentReads).toHaveLength(0);
    expect(fake.reads).toEqual([4]);
    // The read confirms the view it was planned in (on a single Redis, in its own MULTI).
    expect(fake.confirming).toEqual([{ generation: 1, epoch: "e1" }]);
  });

  it("plans again when the recent extent was stale", async () => {
    const stale = { firstMs: now - 3 * DAY, lastMs: now };
    const current = { firstMs: now - 5 * DAY, lastMs: now };
    const fake = fakeReader(current, [current, current], stale);
    const { promise, planned } = run(fake.reader);
    expect((await promise).plan).toEqual(dataExtentOf(current, now));
    expect(fake.reads).toEqual([4, 6]);
    expect(planned).toHaveLength(2);
  });

  it("plans once when the extent read with the blocks is the one planned with", async () => {
    const extent = { firstMs: now - 3 * DAY, lastMs: now };
    const fake = fakeReader(extent, [{ ...extent, lastMs: now - 1 }]);
    const { promise, planned } = run(fake.reader);
    await promise;
    // The last recording moved, but not past now + 24 h: the same plan, no second read.
    expect(planned).toHaveLength(1);
    expect(fake.reads).toEqual([4]);
  });

  it("plans again when data arrived before the first recording between the two reads", async () => {
    const before = { firstMs: now - 3 * DAY, lastMs: now };
    const after = { firstMs: now - 5 * DAY, lastMs: now };
    const fake = fakeReader(before, [after, after]);
    const { promise, planned } = run(fake.reader);
    const { plan } = await promise;
    expect(plan).toEqual(dataExtentOf(after, now));
    expect(fake.reads).toEqual([4, 6]);
    expect(planned).toHaveLength(2);
  });

  it("stops following an extent that keeps moving and reads the whole range", async () => {
    const extents = [1, 2, 3].map((d) => ({ firstMs: now - d * DAY, lastMs: now }));
    const fake = fakeReader({ firstMs: now, lastMs: now }, extents);
    const { promise, planned } = run(fake.reader);
    const { plan } = await promise;
    expect(plan).toBeUndefined();
    expect(planned.at(-1)).toBeUndefined();
    expect(fake.reads).toHaveLength(3);
  });
});
