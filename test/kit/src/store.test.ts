import { DAY_MS } from "@vu/time-buckets";
import { describe, expect, it } from "vitest";
import { recordingEvent } from "./recordings";
import { expectedBlocks, INGEST_CLOCK_MARGIN_MS } from "./store";

const NOW = Date.parse("2026-11-24T01:25:30Z");
const tiersOf = (recordedAtMs: number) =>
  expectedBlocks([recordingEvent("r", new Date(recordedAtMs).toISOString())], "acme", NOW).blocks.map(
    (b) => b.tier,
  );

describe("expectedBlocks", () => {
  it("expects every tier of a recent recording", () => {
    expect(tiersOf(NOW - 60_000).sort()).toEqual(["day", "hour", "minute", "month", "quarter", "week"]);
  });

  it("leaves out a minute on the edge of minute retention: the worker's clock decides it", () => {
    // The CI failure this guards against: a minute 35 days old to the second, counted after the
    // expected blocks were computed, was (rightly) not stored.
    expect(tiersOf(NOW - 35 * DAY_MS)).not.toContain("minute");
    expect(tiersOf(NOW - 35 * DAY_MS + INGEST_CLOCK_MARGIN_MS - 120_000)).not.toContain("minute");
  });

  it("still expects minutes clearly inside retention and none clearly past it", () => {
    expect(tiersOf(NOW - 35 * DAY_MS + INGEST_CLOCK_MARGIN_MS + 120_000)).toContain("minute");
    const past = tiersOf(NOW - 35 * DAY_MS - INGEST_CLOCK_MARGIN_MS - 120_000);
    expect(past).not.toContain("minute");
    expect(past).toContain("hour");
  });
});
