import { describe, expect, it } from "vitest";
import { type CacheLookup, type ComputedAnswer, createResultCache } from "./resultCache";

/** A reader whose view (generation, epoch) and write stamp the test sets, counting stamp reads. */
function fakeStore() {
  const state = { generation: 1, epoch: "e1", stamp: "1" as string | null, stampReads: 0 };
  const reader = {
    view: async () => ({ generation: state.generation, epoch: state.epoch }),
    writeStamp: async () => {
      state.stampReads++;
      return state.stamp;
    },
  };
  return { state, reader };
}

/** A computation of `value` at the store's current state, counting its calls. */
function computing(store: ReturnType<typeof fakeStore>, rows = 1) {
  const calls = { count: 0 };
  const compute = async (): Promise<ComputedAnswer<string>> => {
    calls.count++;
    return {
      value: `answer ${calls.count}`,
      view: { generation: store.state.generation, epoch: store.state.epoch },
      stamp: store.state.stamp,
      rows,
    };
  };
  return { calls, compute };
}

describe("createResultCache", () => {
  it("serves a kept answer while the write stamp is unchanged, and computes again once it moves", async () => {
    const store = fakeStore();
    const cache = createResultCache({ reader: store.reader, maxRows: 100 });
    const { calls, compute } = computing(store);
    expect(await cache.answer("acme", "q", false, compute)).toBe("answer 1");
    expect(await cache.answer("acme", "q", false, compute)).toBe("answer 1");
    expect(calls.count).toBe(1);
    expect(store.state.stampReads).toBe(1);
    store.state.stamp = "2";
    expect(await cache.answer("acme", "q", false, compute)).toBe("answer 2");
    expect(await cache.answer("acme", "q", false, compute)).toBe("answer 2");
    expect(calls.count).toBe(2);
  });

  it("checks a kept answer against the stamp read as the request started, when read in the view now", async () => {
    const store = fakeStore();
    const cache = createResultCache({ reader: store.reader, maxRows: 100 });
    const { calls, compute } = computing(store);
    await cache.answer("acme", "q", false, compute);
    const atStart = (stamp: string) => ({
      view: { generation: 1, epoch: "e1" },
      stamp: Promise.resolve(stamp),
    });
    const reads = store.state.stampReads;
    expect(await cache.answer("acme", "q", false, compute, atStart("1"))).toBe("answer 1");
    expect(store.state.stampReads).toBe(reads);
    // A stamp that moved by the request's start: computed again, though a read now would not see it.
    expect(await cache.answer("acme", "q", false, compute, atStart("0"))).toBe("answer 2");
    // Read in another epoch than the view now: not this state's stamp, so the cache reads its own.
    const otherEpoch = { view: { generation: 1, epoch: "e0" }, stamp: Promise.resolve("0") };
    expect(await cache.answer("acme", "q", false, compute, otherEpoch)).toBe("answer 2");
    expect(store.state.stampReads).toBe(reads + 1);
    expect(calls.count).toBe(2);
  });

  it("keeps answers apart by organization, key, generation and epoch", async () => {
    const store = fakeStore();
    const cache = createResultCache({ reader: store.reader, maxRows: 100 });
    const { calls, compute } = computing(store);
    await cache.answer("acme", "q", false, compute);
    expect(await cache.answer("other", "q", false, compute)).toBe("answer 2");
    expect(await cache.answer("acme", "q2", false, compute)).toBe("answer 3");
    store.state.generation = 2;
    expect(await cache.answer("acme", "q", false, compute)).toBe("answer 4");
    // Redis lost its state and a replay rebuilt it: the same stamp names other data.
    store.state.epoch = "e2";
    expect(await cache.answer("acme", "q", false, compute)).toBe("answer 5");
    expect(calls.count).toBe(5);
  });

  it("computes for a no-cache request, or without a key, and keeps nothing without a stamp", async () => {
    const store = fakeStore();
    const cache = createResultCache({ reader: store.reader, maxRows: 100 });
    const { calls, compute } = computing(store);
    await cache.answer("acme", "q", false, compute);
    expect(await cache.answer("acme", "q", true, compute)).toBe("answer 2");
    // The computed answer replaced the kept one.
    expect(await cache.answer("acme", "q", false, compute)).toBe("answer 2");
    await cache.answer("acme", undefined, false, compute);
    await cache.answer("acme", undefined, false, compute);
    expect(calls.count).toBe(4);
    store.state.stamp = null;
    await cache.answer("acme", "unstamped", false, compute);
    await cache.answer("acme", "unstamped", false, compute);
    expect(calls.count).toBe(6);
  });

  it("does not keep an answer read in another generation than its key names", async () => {
    const store = fakeStore();
    const cache = createResultCache({ reader: store.reader, maxRows: 100 });
    let calls = 0;
    // A rebuild switches the generation between the key and the read.
    const compute = async (): Promise<ComputedAnswer<number>> => ({
      value: ++calls,
      view: { generation: 2, epoch: "e1" },
      stamp: "1",
      rows: 1,
    });
    await cache.answer("acme", "q", false, compute);
    await cache.answer("acme", "q", false, compute);
    expect(calls).toBe(2);
  });

  it("keeps no answer larger than a quarter of its rows, and none at all with 0 rows", async () => {
    const store = fakeStore();
    const big = computing(store, 26);
    const cache = createResultCache({ reader: store.reader, maxRows: 100 });
    await cache.answer("acme", "big", false, big.compute);
    await cache.answer("acme", "big", false, big.compute);
    expect(big.calls.count).toBe(2);
    const none = createResultCache({ reader: store.reader, maxRows: 0 });
    const small = computing(store);
    await none.answer("acme", "q", false, small.compute);
    await none.answer("acme", "q", false, small.compute);
    expect(small.calls.count).toBe(2);
  });

  it("keeps a larger answer apart when maxLargeRows has room for it", async () => {
    const store = fakeStore();
    const big = computing(store, 26);
    const cache = createResultCache({ reader: store.reader, maxRows: 100, maxLargeRows: 1_000 });
    expect(await cache.answer("acme", "big", false, big.compute)).toBe("answer 1");
    expect(await cache.answer("acme", "big", false, big.compute)).toBe("answer 1");
    expect(big.calls.count).toBe(1);
    store.state.stamp = "2";
    expect(await cache.answer("acme", "big", false, big.compute)).toBe("answer 2");
  });

  it("computes a burst of the same query once, and only while nothing was counted since its read", async () => {
    const store = fakeStore();
    const cache = createResultCache({ reader: store.reader, maxRows: 100 });
    let calls = 0;
    let release: () => void = () => undefined;
    const compute = async (): Promise<ComputedAnswer<number>> => {
      const call = ++calls;
      const stamp = store.state.stamp;
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return { value: call, view: { generation: 1, epoch: "e1" }, stamp, rows: 1 };
    };
    const burst = [1, 2, 3].map(() => cache.answer("acme", "q", false, compute));
    await new Promise((resolve) => setTimeout(resolve, 0));
    release();
    expect(await Promise.all(burst)).toEqual([1, 1, 1]);
    expect(calls).toBe(1);

    // A batch is counted while the shared computation is under way: the late request computes anew.
    store.state.stamp = "2";
    const first = cache.answer("acme", "q", false, compute);
    await new Promise((resolve) => setTimeout(resolve, 0));
    const late = cache.answer("acme", "q", false, compute);
    store.state.stamp = "3";
    release();
    await new Promise((resolve) => setTimeout(resolve, 0));
    release();
    expect(await first).toBe(2);
    expect(await late).toBe(3);
  });
  it("tells how each question was answered: hit, joined, miss or bypass", async () => {
    const store = fakeStore();
    const outcomes: CacheLookup[] = [];
    const cache = createResultCache({
      reader: store.reader,
      maxRows: 100,
      onLookup: (outcome) => outcomes.push(outcome),
    });
    const { compute } = computing(store);
    await cache.answer("acme", "q", false, compute);
    await cache.answer("acme", "q", false, compute);
    store.state.stamp = "2";
    await cache.answer("acme", "q", false, compute);
    await cache.answer("acme", "q", true, compute);
    await cache.answer("acme", undefined, false, compute);
    expect(outcomes).toEqual(["miss", "hit", "miss", "bypass", "bypass"]);

    outcomes.length = 0;
    let release: () => void = () => undefined;
    const slow = async (): Promise<ComputedAnswer<string>> => {
      await new Promise<void>((resolve) => {
        release = resolve;
      });
      return { value: "slow", view: { generation: 1, epoch: "e1" }, stamp: store.state.stamp, rows: 1 };
    };
    const burst = [1, 2].map(() => cache.answer("acme", "burst", false, slow));
    await new Promise((resolve) => setTimeout(resolve, 0));
    release();
    await Promise.all(burst);
    expect(outcomes).toEqual(["miss", "joined"]);

    outcomes.length = 0;
    const off = createResultCache({
      reader: store.reader,
      maxRows: 0,
      onLookup: (outcome) => outcomes.push(outcome),
    });
    await off.answer("acme", "q", false, compute);
    expect(outcomes).toEqual(["bypass"]);
  });
});
