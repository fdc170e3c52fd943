import { createLogger } from "@vu/service-runtime";
import type { AdvanceOptions, LogPosition, LogRecord } from "@vu/store";
import { describe, expect, it } from "vitest";
import { createIngestMetrics } from "../metrics";
import { createPartitionPositions } from "./partitionPositions";

// docs/contract.md §7 `X-Data-As-Of`: an idle partition must not hold the view's as-of back. The
// view watcher refreshes it for the owned partitions that are caught up, and only those.

const NOW = Date.parse("2026-11-25T12:00:00.000Z");

function fakes(checkpoints: Record<string, string>, highs: Record<number, string>) {
  const record: LogRecord = {
    epoch: "e",
    state: "live",
    reason: null,
    checkpoints: new Map(Object.entries(checkpoints)),
    targets: new Map(),
  };
  const advances: AdvanceOptions[] = [];
  const log: LogPosition = {
    status: async () => record,
    read: async () => record,
    open: async () => ({ opened: false, epoch: "e" }),
    async advance(_generation, advance) {
      advances.push(advance);
      return { kind: "advanced", state: "live" };
    },
    shardsBehind: async () => [],
    claim: async () => "1",
    fenceOf: async () => "1",
    adoptTopicId: async (_generation, _topic, topicId) => topicId,
  };
  let offsetRequests = 0;
  const admin = {
    fetchTopicOffsets: async () => {
      offsetRequests++;
      return Object.entries(highs).map(([partition, high]) => ({
        partition: Number(partition),
        offset: high,
        high,
        low: "0",
      }));
    },
    fetchOffsets: async () => [{ topic: "t", partitions: [] }],
    fetchTopicIds: async () => ({ topics: [{ name: "t", topicId: "id-1" }] }),
  };
  const positions = createPartitionPositions({
    log,
    admin: admin as never,
    topic: "t",
    groupId: "g",
    seek: () => undefined,
    beforeOpening: async () => undefined,
    logger: createLogger("test", "silent"),
    metrics: createIngestMetrics(),
    now: () => NOW,
  });
  return { positions, advances, offsetRequests: () => offsetRequests };
}

describe("the view watcher's as-of refresh", () => {
  it("moves the as-of of an owned partition whose checkpoint is its high watermark, leaving the checkpoint", async () => {
    const { positions, advances } = fakes(
      { "t:0": "10", "t:1": "4", "t:2": "7" },
      { 0: "10", 1: "9", 2: "7" },
    );
    positions.assigned([0, 1]);
    await positions.watch(async () => 1);
    // Partition 1 is behind (its batches move it); partition 2 is another worker's.
    expect(advances.filter((a) => a.asOfMs !== undefined)).toEqual([
      { epoch: "e", partition: "t:0", expected: "10", next: "10", asOfMs: NOW },
    ]);
  });

  it("asks Kafka nothing while this worker owns no partition with a checkpoint", async () => {
    const { positions, advances, offsetRequests } = fakes({}, { 0: "0" });
    positions.assigned([0]);
    const before = offsetRequests();
    await positions.watch(async () => 1);
    expect(advances.filter((a) => a.asOfMs !== undefined)).toEqual([]);
    // The new partition's position is established (one request); the refresh adds none.
    expect(offsetRequests() - before).toBeLessThanOrEqual(1);
  });
});
