import { describe, expect, it } from "vitest";
import { parseLogRecord, standingOf } from "./logRecord";

describe("parseLogRecord", () => {
  it("reads each field of the log hash into its map, and a view as of its earliest partition", () => {
    const record = parseLogRecord({
      epoch: "e1",
      state: "live",
      "next:t:0": "10",
      "next:t:1": "20",
      "asof:t:0": "1000",
      "asof:t:1": "900",
      "target:t:1": "25",
      "writes:17:t:0": "4",
      "fence:t:0": "123",
      "topicid:t": "abc",
    });
    expect(record.checkpoints).toEqual(
      new Map([
        ["t:0", "10"],
        ["t:1", "20"],
      ]),
    );
    expect(record.targets).toEqual(new Map([["t:1", "25"]]));
    expect(record.shardWrites).toEqual(new Map([["t:0", new Map([[17, 4]])]]));
    expect(record.topicIds).toEqual(new Map([["t", "abc"]]));
    expect(standingOf(record)).toEqual({ epoch: "e1", state: "live", reason: null, asOfMs: 900 });
  });

  it("has no epoch nor state where the hash holds none it knows", () => {
    const record = parseLogRecord({ state: "sleeping", "next:t:0": "1" });
    expect(standingOf(record)).toEqual({ epoch: null, state: null, reason: null, asOfMs: null });
  });
});
