import { createLogger } from "@vu/service-runtime";
import { StoreError } from "@vu/store";
import type { EachBatchPayload } from "kafkajs";
import { describe, expect, it } from "vitest";
import { type BatchContext, handleBatch } from "./batchHandler";
import { createIngestMetrics } from "./metrics";
import type { PartitionPositions, Position } from "./partitionPositions";

// The batch handler finds its position before anything else; whether a failure there is tried
// again is the retry rule's (retryRule.ts) to say, and for the store's failures the store's.

const POSITION: Position = {
  generation: 1,
  epoch: "e",
  next: "5",
  stored: "5",
  shards: { recorded: new Map(), calls: new Map() },
  fence: "1",
};

/** A context whose generation fails with `failures` first, then 1; its batch must seek (it begins off the checkpoint). */
function setup(failures: unknown[]) {
  const metrics = createIngestMetrics();
  let reads = 0;
  const sought: string[] = [];
  const ctx = {
    generation: {
      current: async () => {
        const failure = failures[reads++];
        if (failure !== undefined) throw failure;
        return 1;
      },
    },
    positions: {
      resumeAt: async () => POSITION,
      mustSeek: () => true,
    } as Partial<PartitionPositions> as PartitionPositions,
    seek: (_partition: number, offset: string) => sought.push(offset),
    onTransientFailure: () => undefined,
    metrics,
    logger: createLogger("test", "silent"),
    now: Date.now,
  } as Partial<BatchContext> as BatchContext;
  const payload = {
    batch: { topic: "t", partition: 0, firstOffset: () => "0", messages: [], highWatermark: "9" },
    isRunning: () => true,
    isStale: () => false,
    heartbeat: async () => undefined,
  } as unknown as EachBatchPayload;
  const retries = async () =>
    (await metrics.retries.get()).values.find((v) => v.labels.step === "position")?.value ?? 0;
  return { ctx, payload, reads: () => reads, sought, retries };
}

describe("the batch handler's retries", () => {
  it("tries a store failure the store calls retriable again until it passes", async () => {
    const away = new StoreError("reading the keyspace generation failed", { retriable: true });
    const { ctx, payload, reads, sought, retries } = setup([away, away]);
    await handleBatch(ctx, payload);
    expect(reads()).toBe(3);
    expect(await retries()).toBe(2);
    expect(sought).toEqual(["5"]);
  });

  it("gives up at once on a store failure the store calls not retriable", async () => {
    const refused = new StoreError("reading the keyspace generation failed", { retriable: false });
    const { ctx, payload, reads, sought, retries } = setup([refused]);
    await expect(handleBatch(ctx, payload)).rejects.toBe(refused);
    expect(reads()).toBe(1);
    expect(await retries()).toBe(0);
    expect(sought).toEqual([]);
  });
});
