import { describe, expect, it } from "vitest";
import { type PhaseSamples, pooled, withHeavyOf } from "./noisyPhases";

const samples = (over: Partial<PhaseSamples>): PhaseSamples => ({
  small: [],
  smallFailed: 0,
  pings: [],
  heavy: [],
  heavyRefused: 0,
  heavyFailed: 0,
  events: {},
  slowCommands: [],
  ...over,
});

describe("pooled", () => {
  it("takes percentiles over every round's samples, not the rounds' own", () => {
    const rounds = [samples({ small: [1, 2, 3, 4] }), samples({ small: [10, 20, 30, 40], smallFailed: 2 })];
    const phase = pooled(rounds);
    expect(phase.small).toMatchObject({ samples: 8, p50: 4, max: 40 });
    expect(phase.smallFailed).toBe(2);
  });

  it("keeps each latency event's longest over the rounds, and the ten longest slow commands", () => {
    const slow = (ms: number) => ({ ms, command: `hget k${ms}`, args: 3 });
    const phase = pooled([
      samples({ events: { command: 4, "fast-command": 2 }, slowCommands: [6, 8].map(slow) }),
      samples({ events: { command: 7 }, slowCommands: [5, 9, 7, 10, 11, 12, 13, 14, 15].map(slow) }),
    ]);
    expect(phase.redisLatencyEvents).toEqual({ command: 7, "fast-command": 2 });
    expect(phase.redisLongestCommandMs).toBe(7);
    expect(phase.redisSlowCommands?.map((c) => c.ms)).toEqual([15, 14, 13, 12, 11, 10, 9, 8, 7, 6]);
  });

  it("says no command reached the threshold when no round saw one", () => {
    expect(pooled([samples({}), samples({})]).redisLongestCommandMs).toBe(0);
  });
});

describe("withHeavyOf", () => {
  it("adds the heavy questions' times and refusals over the rounds", () => {
    const phase = withHeavyOf([
      samples({ heavy: [100, 300], heavyRefused: 1 }),
      samples({ heavy: [200], heavyRefused: 2, heavyFailed: 1 }),
    ]);
    expect(phase.heavy).toMatchObject({ samples: 3, p50: 200 });
    expect(phase).toMatchObject({ heavyRefused: 3, heavyFailed: 1 });
  });
});
