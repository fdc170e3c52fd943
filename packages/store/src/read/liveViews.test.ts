import { describe, expect, it } from "vitest";
import type { LogPosition } from "../log/logPosition";
import type { LogRecord } from "../log/logRecord";
import { LiveViews, VIEW_CACHE_MS, ViewNotLiveError } from "./liveViews";

function record(epoch: string | null, state: LogRecord["state"] = "live"): LogRecord {
  return { epoch, state, reason: null, checkpoints: new Map(), targets: new Map() };
}

/** LiveViews over a log hash that holds `current` (changed by the test), counting its reads. */
function setup() {
  const state = { current: record("e1"), reads: 0, newEpochs: 0, nowMs: 0 };
  const log: Pick<LogPosition, "read" | "shardsBehind"> = {
    read: async () => {
      state.reads++;
      return state.current;
    },
    shardsBehind: async () => [],
  };
  const views = new LiveViews({
    log,
    generations: { current: async () => 1 },
    now: () => state.nowMs,
    onNewEpoch: () => {
      state.newEpochs++;
    },
  });
  return { state, views };
}

describe("LiveViews", () => {
  it("answers from memory while fresh, and asks the log hash again after VIEW_CACHE_MS", async () => {
    const { state, views } = setup();
    expect(await views.current()).toEqual({ generation: 1, epoch: "e1", asOfMs: null });
    await views.current();
    expect(state.reads).toBe(1);
    state.nowMs += VIEW_CACHE_MS + 1;
    await views.current();
    expect(state.reads).toBe(2);
  });

  it("tells the reader once the live epoch is another, so its caches go", async () => {
    const { state, views } = setup();
    await views.current();
    state.current = record("e2");
    state.nowMs += VIEW_CACHE_MS + 1;
    expect((await views.current()).epoch).toBe("e2");
    expect(state.newEpochs).toBe(1);
  });

  it("refuses a store that is not live, and a confirm after the epoch changed", async () => {
    const { state, views } = setup();
    const view = await views.current();
    state.current = record("e2");
    await expect(views.confirm(view)).rejects.toThrow(/epoch changed/);
    state.current = record("e3", "replaying");
    state.nowMs += VIEW_CACHE_MS + 1;
    await expect(views.current()).rejects.toBeInstanceOf(ViewNotLiveError);
  });
});
