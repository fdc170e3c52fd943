import { RetryAbortedError, retryWithBackoff } from "@vu/service-runtime";
import {
  type BatchOrigin,
  type CountableRecording,
  type GroupApply,
  type PreparedBatch,
  StoreError,
} from "@vu/store";
import { describe, expect, it } from "vitest";
import {
  applyGroup,
  applyOrganization,
  applyRecordings,
  type OrganizationApplyDeps,
} from "./organizationApply";

interface Rec extends CountableRecording {
  id: string;
}
const rec = (id: string, offset?: number) =>
  ({ id, ...(offset === undefined ? {} : { offset: String(offset) }) }) as Rec;
const batchOf = (recordings: Rec[], origin?: BatchOrigin): PreparedBatch<Rec> =>
  ({
    org: "acme",
    layout: "",
    recordings,
    origin,
    extent: [0, 0],
    encoded: Buffer.alloc(0),
  }) as PreparedBatch<Rec>;

/** A store that counts what it is given, refuses batches holding a poisoned id, and fails transiently on cue. */
function fakeStore(options: { poisoned?: string[]; transientFailures?: number; counted?: Set<string> }) {
  const counted = options.counted ?? new Set<string>();
  let transient = options.transientFailures ?? 0;
  const calls: string[][] = [];
  const throughs: Array<string | undefined> = [];
  const deps: OrganizationApplyDeps<Rec> = {
    prepare: (_org, recordings, origin) => batchOf([...recordings], origin),
    async apply(batch) {
      const ids = batch.recordings.map((r) => r.id);
      calls.push(ids);
      throughs.push(batch.origin?.throughOffset);
      if (transient-- > 0) throw new StoreError("Redis away", { retriable: true });
      if (ids.some((id) => options.poisoned?.includes(id)))
        throw new StoreError("applying a batch to Redis failed", { retriable: false });
      const duplicates = ids.filter((id) => counted.has(id)).length;
      for (const id of ids) counted.add(id);
      return { counted: ids.length - duplicates, duplicates, replayed: 0 };
    },
    retrying: (fn, isRetriable) =>
      retryWithBackoff(fn, { shouldContinue: () => true, isRetriable, initialDelayMs: 1 }),
  };
  return { deps, counted, calls, throughs };
}

const ids = (n: number) => Array.from({ length: n }, (_, i) => rec(`r${i}`));

describe("applyOrganization", () => {
  it("retries a transient failure and counts the batch once", async () => {
    const store = fakeStore({ transientFailures: 2 });
    const outcome = await applyOrganization(store.deps, batchOf(ids(10)));
    expect(outcome).toEqual({ counted: 10, duplicates: 0, replayed: 0, refused: [] });
    expect(store.calls).toHaveLength(3);
  });

  it("isolates the recordings the store refuses and counts every other one once", async () => {
    const store = fakeStore({ poisoned: ["r3", "r77"] });
    const outcome = await applyOrganization(store.deps, batchOf(ids(100)));
    expect(outcome.counted).toBe(98);
    expect(outcome.refused.map((r) => r.recording.id)).toEqual(["r3", "r77"]);
    expect(outcome.refused[0]?.error).toBeInstanceOf(StoreError);
    expect([...store.counted].sort()).toEqual(
      ids(100)
        .map((r) => r.id)
        .filter((id) => id !== "r3" && id !== "r77")
        .sort(),
    );
    // Halving: about 2 × log2(100) calls per poisoned id, not one per recording.
    expect(store.calls.length).toBeLessThan(30);
  });

  it("gives each half the log up to the next half's first message, so the stored offset never skips one", async () => {
    const store = fakeStore({ poisoned: ["r3"] });
    const recordings = Array.from({ length: 8 }, (_, i) => rec(`r${i}`, 100 + 2 * i));
    const outcome = await applyOrganization(
      store.deps,
      batchOf(recordings, { partition: "t:0", throughOffset: "130" }),
    );
    expect(outcome.counted).toBe(7);
    const applied = store.throughs.filter((_, i) => !(store.calls[i] ?? []).includes("r3"));
    // Narrowed down as [r0 r1] [r2] (r3 alone is refused) [r4..r7]: each covers the log up to
    // the next part's first offset - 1, the last part up to the chunk's end.
    expect(applied).toEqual(["103", "105", "130"]);
  });

  it("keeps duplicates the store reports while narrowing down", async () => {
    const store = fakeStore({ poisoned: ["r0"], counted: new Set(["r5", "r6"]) });
    const outcome = await applyOrganization(store.deps, batchOf(ids(8)));
    expect(outcome).toMatchObject({ counted: 5, duplicates: 2 });
  });

  it("gives up, without refusing anything, when the consumer stops during transient failures", async () => {
    const store = fakeStore({ transientFailures: 1_000 });
    let attempts = 0;
    const deps = {
      ...store.deps,
      retrying: <T>(fn: () => Promise<T>, isRetriable: (e: unknown) => boolean) =>
        retryWithBackoff(fn, { shouldContinue: () => ++attempts < 3, isRetriable, initialDelayMs: 1 }),
    };
    await expect(applyOrganization(deps, batchOf(ids(4)))).rejects.toBeInstanceOf(RetryAbortedError);
  });
});

describe("applyRecordings", () => {
  it("isolates a recording that cannot even be prepared", async () => {
    const store = fakeStore({});
    const deps: OrganizationApplyDeps<Rec> = {
      ...store.deps,
      prepare: (org, recordings) => {
        if (recordings.some((r) => r.id === "r2"))
          throw new RangeError("string too long for the batch encoding");
        return store.deps.prepare(org, recordings, undefined);
      },
    };
    const outcome = await applyRecordings(deps, "acme", ids(5), undefined);
    expect(outcome.counted).toBe(4);
    expect(outcome.refused.map((r) => [r.recording.id, (r.error as Error).message])).toEqual([
      ["r2", "string too long for the batch encoding"],
    ]);
  });
});

describe("applyGroup", () => {
  /** A shared call that settles `settled`, then fails for good with `unsettled` left (a damaged key). */
  const failingGroup = (
    unsettled: Array<{ batch: PreparedBatch<Rec>; duplicates: number; replayed: number }>,
  ) => {
    let runs = 0;
    const group: GroupApply<Rec> = {
      async run() {
        runs++;
        throw new StoreError("applying a batch to Redis failed", { retriable: false });
      },
      progress: () => ({ settled: [{ counted: 3, duplicates: 1, replayed: 0 }], unsettled }),
    };
    return { group, runs: () => runs };
  };

  it("applies what a failed shared call left unsettled alone, keeping what earlier calls found of it", async () => {
    const store = fakeStore({ poisoned: ["r1"] });
    const { group, runs } = failingGroup([{ batch: batchOf(ids(4)), duplicates: 2, replayed: 1 }]);
    const outcomes = await applyGroup(store.deps, group);
    expect(runs()).toBe(1);
    expect(outcomes.map(({ counted, duplicates, replayed }) => ({ counted, duplicates, replayed }))).toEqual([
      { counted: 3, duplicates: 1, replayed: 0 },
      { counted: 3, duplicates: 2, replayed: 1 },
    ]);
    expect(outcomes[1]?.refused.map((r) => r.recording.id)).toEqual(["r1"]);
  });

  it("retries a transient failure of the shared call, and never applies alone what it may yet apply", async () => {
    const store = fakeStore({});
    let runs = 0;
    const group: GroupApply<Rec> = {
      async run() {
        if (runs++ < 2) throw new StoreError("Redis away", { retriable: true });
        return [{ counted: 5, duplicates: 0, replayed: 0 }];
      },
      progress: () => ({ settled: [], unsettled: [] }),
    };
    expect(await applyGroup(store.deps, group)).toEqual([
      { counted: 5, duplicates: 0, replayed: 0, refused: [] },
    ]);
    expect(runs).toBe(3);
    expect(store.calls).toEqual([]);
  });
});
