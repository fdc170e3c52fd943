import { type ReadView, ViewNotLiveError } from "@vu/store";
import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { registerViewMetrics, VIEW_METRIC_STATES } from "./viewMetrics";

const LIVE: ReadView = { generation: 1, epoch: "e1", asOfMs: 0 };

async function states(view: () => Promise<ReadView>): Promise<Record<string, number>> {
  const registry = new Registry();
  registerViewMetrics(registry, { view });
  const [metric] = await registry.getMetricsAsJSON();
  return Object.fromEntries((metric?.values ?? []).map((v) => [String(v.labels.state), v.value]));
}

describe("vu_view_state", () => {
  it("is 1 for live and 0 for every other state while the view answers", async () => {
    expect(await states(async () => LIVE)).toEqual({
      live: 1,
      replaying: 0,
      incomplete: 0,
      no_epoch: 0,
      unknown: 0,
    });
  });

  it.each([
    [{ epoch: "e2", state: "replaying", reason: "replaying the topic" }, "replaying"],
    [{ epoch: "e2", state: "incomplete", reason: "the topic no longer holds offsets 0-9" }, "incomplete"],
    [{ epoch: null, state: null, reason: null }, "no_epoch"],
  ] as const)("names the state a view that is not live is in (%j)", async (status, expected) => {
    const shown = await states(async () => {
      throw new ViewNotLiveError(status);
    });
    expect(Object.entries(shown).filter(([, value]) => value === 1)).toEqual([[expected, 1]]);
    expect(Object.keys(shown)).toHaveLength(VIEW_METRIC_STATES.length);
  });

  it("is unknown, not live, when the view cannot be read at all", async () => {
    const shown = await states(async () => {
      throw new Error("connect ECONNREFUSED");
    });
    expect(shown.unknown).toBe(1);
    expect(shown.live).toBe(0);
  });
});
