import { createLogger } from "@vu/service-runtime";
import type { AdvanceResult, LogPosition, LogRecord, OpenEpochOptions } from "@vu/store";
import { KafkaJSServerDoesNotSupportApiKey } from "kafkajs";
import { describe, expect, it } from "vitest";
import { createIngestMetrics } from "../metrics";
import { createPartitionPositions } from "./partitionPositions";

/** A log hash in memory and a topic whose offsets and group commits the test sets. */
function fakes(options: {
  low?: string;
  high?: string;
  committed?: string;
  record?: Partial<LogRecord>;
  /** Partition t:0's write counts on the shards in Redis (a cluster), compared with the record's `shardWrites`. */
  shardCounts?: Map<number, number>;
  /** The topic's id as the brokers give it now; null: brokers too old to give one. Default `id-1`. */
  topicId?: string | null;
  /** Runs while a read of the log is under way: the read answers the state from before it. */
  duringRead?: () => Promise<void>;
  acceptTrimmed?: boolean;
}) {
  const opened: OpenEpochOptions[] = [];
  /** The log's claims: "<topic>:<partition>" → the latest fence. */
  const fences = new Map<string, string>();
  let record: LogRecord = {
    epoch: null,
    state: null,
    reason: null,
    checkpoints: new Map(),
    targets: new Map(),
    ...options.record,
  };
  const log: LogPosition = {
    status: async () => record,
    async read() {
      const before = record;
      await options.duringRead?.();
      return before;
    },
    async open(_generation, open) {
      if (open.expected !== record.epoch) return { opened: false, epoch: record.epoch ?? "" };
      opened.push(open);
      record = {
        ...record,
        ...(open.reset === true ? { checkpoints: new Map(), shardWrites: new Map() } : {}),
        ...(open.expected === null ? { topicIds: new Map() } : {}),
        epoch: `e${opened.length}`,
        state: open.state,
        reason: open.reason,
        targets: open.targets,
      };
      return { opened: true, epoch: record.epoch ?? "" };
    },
    async advance(_generation, advance): Promise<AdvanceResult> {
      const checkpoints = new Map(record.checkpoints).set(advance.partition, advance.next);
      const shardWrites = new Map(record.shardWrites);
      const counts = new Map([...(shardWrites.get(advance.partition) ?? []), ...(advance.shardWrites ?? [])]);
      record = { ...record, checkpoints, shardWrites: shardWrites.set(advance.partition, counts) };
      return { kind: "advanced", state: "live" };
    },
    shardsBehind: async (_generation, seen) =>
      [...(seen.shardWrites?.get("t:0") ?? [])].flatMap(([shard, count]) =>
        (options.shardCounts?.get(shard) ?? 0) < count ? [shard] : [],
      ),
    async claim(_generation, partition, floor) {
      const fence = Math.max(Number(fences.get(partition) ?? 0), Number(floor ?? 0)) + 1;
      fences.set(partition, String(fence));
      return String(fence);
    },
    fenceOf: async (_generation, partition) => fences.get(partition) ?? null,
    async adoptTopicId(_generation, topic, topicId) {
      const recorded = record.topicIds?.get(topic) ?? topicId;
      record = { ...record, topicIds: new Map(record.topicIds).set(topic, recorded) };
      return recorded;
    },
  };
  const admin = {
    fetchTopicOffsets: async () => [
      { partition: 0, offset: options.high ?? "10", high: options.high ?? "10", low: options.low ?? "0" },
    ],
    fetchOffsets: async () => [
      { topic: "t", partitions: [{ partition: 0, offset: options.committed ?? "-1", metadata: null }] },
    ],
    async fetchTopicIds() {
      if (options.topicId === null) throw new KafkaJSServerDoesNotSupportApiKey("no Metadata v10");
      return { topics: [{ name: "t", topicId: options.topicId ?? "id-1" }] };
    },
  };
  const seeks: Array<[number, string]> = [];
  const metrics = createIngestMetrics();
  const positions = createPartitionPositions({
    log,
    admin: admin as never,
    topic: "t",
    groupId: "g",
    seek: (partition, offset) => seeks.push([partition, offset]),
    beforeOpening: async () => undefined,
    logger: createLogger("test", "silent"),
    metrics,
    acceptTrimmed: options.acceptTrimmed ?? false,
  });
  return { positions, opened, seeks, metrics, fences, record: () => record };
}

/**
 * Fakes owning partitions 0 and 1, where partition 1's batch begins during the second read of the
 * log (the first is the watcher's own; the second, its read of partition 0's position), applies a
 * chunk up to 9 and goes on with the next (Kafka has fetched past 9).
 */
function batchOfPartition1DuringSecondRead(record?: Partial<LogRecord>) {
  let reads = 0;
  let batch: (() => Promise<void>) | undefined;
  const made = fakes({
    ...(record === undefined ? {} : { record }),
    duringRead: async () => {
      if (++reads === 2) await batch?.();
    },
  });
  batch = async () => {
    batch = undefined;
    const at = await made.positions.resumeAt(1, 1);
    await made.positions.advance(1, at, "9");
  };
  made.positions.assigned([0, 1]);
  return made;
}

describe("createPartitionPositions", () => {
  it("opens a first epoch that replays the whole topic, from its earliest offset", async () => {
    const { positions, opened } = fakes({ low: "0", high: "10" });
    expect(await positions.resumeAt(1, 0)).toMatchObject({ epoch: "e1", next: "0", stored: null });
    expect(opened).toEqual([
      expect.objectContaining({ state: "replaying", targets: new Map([["t:0", "10"]]) }),
    ]);
    expect(opened[0]?.reason).toMatch(/a new store/);
  });

  it("calls a new store incomplete on a topic that no longer holds its first events, unless a partial rebuild accepts it", async () => {
    const strict = fakes({ low: "3", high: "10" });
    expect(await strict.positions.resumeAt(1, 0)).toMatchObject({ next: "3", stored: null });
    expect(strict.opened[0]?.state).toBe("incomplete");
    expect(strict.opened[0]?.reason).toMatch(/^a new store, and the topic no longer holds its first events/);
    expect((await strict.metrics.logTruncated.get()).values[0]?.value).toBe(1);

    const partial = fakes({ low: "3", high: "10", acceptTrimmed: true });
    await partial.positions.resumeAt(1, 0);
    expect(partial.opened[0]?.state).toBe("replaying");
  });

  it("turns a live view incomplete when its checkpoint is below the topic's first offset (a restore past retention)", async () => {
    const { positions, opened, metrics, record } = fakes({
      low: "7",
      high: "10",
      committed: "4",
      record: { epoch: "old", state: "live", checkpoints: new Map([["t:0", "4"]]) },
    });
    expect(await positions.resumeAt(1, 0)).toMatchObject({ next: "7", stored: "4", epoch: "e1" });
    expect(opened).toEqual([expect.objectContaining({ expected: "old", state: "incomplete" })]);
    expect(opened[0]?.reason).toMatch(/^partition 0: the topic no longer holds offsets 4-6, which the view/);
    expect(record().state).toBe("incomplete");
    expect(positions.status()?.state).toBe("incomplete");
    expect((await metrics.epochsOpened.get()).values).toEqual([
      expect.objectContaining({ labels: { cause: "gap" }, value: 1 }),
    ]);
  });

  it("turns a view incomplete when its checkpoint is past the topic's end (the topic was made again)", async () => {
    const { positions, opened } = fakes({
      low: "0",
      high: "3",
      record: { epoch: "old", state: "live", checkpoints: new Map([["t:0", "8"]]) },
    });
    expect(await positions.resumeAt(1, 0)).toMatchObject({ next: "3", stored: "8" });
    expect(opened[0]?.state).toBe("incomplete");
    expect(opened[0]?.reason).toMatch(/applied up to offset 7 but the topic ends at 3/);
  });

  it("records the topic's id with a new epoch, and with a store that has none yet, without alarm", async () => {
    const fresh = fakes({ low: "0", high: "10" });
    await fresh.positions.resumeAt(1, 0);
    expect(fresh.record().topicIds).toEqual(new Map([["t", "id-1"]]));
    expect(fresh.opened.map((o) => o.state)).toEqual(["replaying"]);

    const old = fakes({ record: { epoch: "e", state: "live", checkpoints: new Map([["t:0", "4"]]) } });
    expect(await old.positions.resumeAt(1, 0)).toMatchObject({ epoch: "e", next: "4" });
    expect(old.record().topicIds).toEqual(new Map([["t", "id-1"]]));
    expect(old.opened).toEqual([]);
  });

  it("turns a view incomplete when the topic's id is not the one it recorded, naming the topic and both ids", async () => {
    const { positions, opened, metrics, record } = fakes({
      low: "0",
      high: "10",
      topicId: "id-2",
      record: {
        epoch: "old",
        state: "live",
        checkpoints: new Map([["t:0", "4"]]),
        topicIds: new Map([["t", "id-1"]]),
      },
    });
    expect(await positions.resumeAt(1, 0)).toMatchObject({ epoch: "e1", stored: "4" });
    expect(opened).toEqual([expect.objectContaining({ expected: "old", state: "incomplete" })]);
    expect(opened[0]?.reason).toMatch(
      /^topic t is not the topic the view counts: its id is id-2, the view's id-1/,
    );
    expect(record()).toMatchObject({ state: "incomplete", topicIds: new Map([["t", "id-1"]]) });
    expect((await metrics.epochsOpened.get()).values).toEqual([
      expect.objectContaining({ labels: { cause: "gap" }, value: 1 }),
    ]);
    // Incomplete already: a worker resuming later opens no further epoch.
    await positions.watch(async () => 1);
    expect(opened).toHaveLength(1);
  });

  it("notices a topic replaced while it runs, at its next watch", async () => {
    const live = {
      epoch: "e",
      state: "live" as const,
      checkpoints: new Map([["t:0", "4"]]),
      topicIds: new Map([["t", "id-1"]]),
    };
    const same = fakes({ record: live });
    await same.positions.watch(async () => 1);
    expect(same.opened).toEqual([]);
    const replaced = fakes({ topicId: "id-2", record: live });
    await replaced.positions.watch(async () => 1);
    expect(replaced.opened).toEqual([expect.objectContaining({ expected: "e", state: "incomplete" })]);
    expect((await replaced.metrics.logTruncated.get()).values[0]?.value).toBe(1);
  });

  it("goes on without the check where the brokers give no topic ids", async () => {
    const { positions, opened, record } = fakes({
      topicId: null,
      record: {
        epoch: "e",
        state: "live",
        checkpoints: new Map([["t:0", "4"]]),
        topicIds: new Map([["t", "id-1"]]),
      },
    });
    expect(await positions.resumeAt(1, 0)).toMatchObject({ epoch: "e", next: "4" });
    await positions.watch(async () => 1);
    expect(opened).toEqual([]);
    expect(record().state).toBe("live");
  });

  it("calls a view incomplete when Redis lost its state and the topic no longer holds its first events", async () => {
    const { positions, opened, metrics } = fakes({ low: "3", high: "10", committed: "8" });
    await positions.resumeAt(1, 0);
    expect(opened[0]?.state).toBe("incomplete");
    expect(opened[0]?.reason).toMatch(/no longer holds its first events \(partitions 0\)/);
    expect((await metrics.logTruncated.get()).values[0]?.value).toBe(1);
    expect(positions.deadLettersSentBelow(0)).toBe(8);
  });

  it("shows the view's incompleteness as its watch finds it, so a rebuild that made it whole clears it", async () => {
    const live = fakes({ record: { epoch: "e1", state: "live", reason: null } });
    // Left by an incomplete epoch of the generation a rebuild has since replaced.
    live.metrics.logTruncated.set(1);
    await live.positions.watch(async () => 2);
    expect((await live.metrics.logTruncated.get()).values[0]?.value).toBe(0);

    // Marked incomplete by another worker: this one says so too.
    const incomplete = fakes({ record: { epoch: "e1", state: "incomplete", reason: "a gap" } });
    await incomplete.positions.watch(async () => 1);
    expect((await incomplete.metrics.logTruncated.get()).values[0]?.value).toBe(1);
  });

  it("opens a new epoch when Kafka's group committed past Redis' checkpoint (Redis went back)", async () => {
    const { positions, opened } = fakes({
      committed: "9",
      record: { epoch: "old", state: "live", checkpoints: new Map([["t:0", "4"]]) },
    });
    expect(await positions.resumeAt(1, 0)).toMatchObject({ next: "4", stored: "4" });
    expect(opened).toEqual([expect.objectContaining({ expected: "old", state: "replaying" })]);
  });

  it("resumes where Redis' checkpoint is, and seeks a batch that starts elsewhere once", async () => {
    const { positions, opened } = fakes({
      committed: "4",
      record: { epoch: "e", state: "live", checkpoints: new Map([["t:0", "4"]]) },
    });
    expect(await positions.resumeAt(1, 0)).toMatchObject({ next: "4", stored: "4" });
    expect(opened).toEqual([]);
    expect(positions.mustSeek(0, "0", "4")).toBe(true);
    // After the seek, a batch starting past it (offsets the log skips) is taken as it is.
    expect(positions.mustSeek(0, "6", "4")).toBe(false);
    expect(positions.mustSeek(0, "4", "4")).toBe(false);
  });

  it("does not take a checkpoint this worker moved during its own read of the log for Redis going back", async () => {
    let advanceDuringRead: (() => Promise<void>) | undefined;
    const { positions, opened, seeks } = fakes({
      committed: "4",
      record: { epoch: "e0", state: "live", checkpoints: new Map([["t:0", "4"]]) },
      duringRead: async () => advanceDuringRead?.(),
    });
    const at = await positions.resumeAt(1, 0);
    seeks.length = 0;
    advanceDuringRead = async () => {
      advanceDuringRead = undefined;
      await positions.advance(0, at, "9");
    };
    await positions.watch(async () => 1);
    expect(opened).toEqual([]);
    expect(seeks).toEqual([]);
    expect(await positions.resumeAt(1, 0)).toMatchObject({ next: "9", stored: "9" });
  });

  it("does not seek a newly given partition back when a batch of it began, applied and moved on while the watcher read its position", async () => {
    let batchDuringRead: (() => Promise<void>) | undefined;
    let reads = 0;
    const { positions, seeks } = fakes({
      committed: "4",
      record: { epoch: "e0", state: "live", checkpoints: new Map([["t:0", "4"]]) },
      // The watcher's own read of the log comes first; the second is its read of the partition's position.
      duringRead: async () => {
        if (++reads === 2) await batchDuringRead?.();
      },
    });
    positions.assigned([0]);
    batchDuringRead = async () => {
      batchDuringRead = undefined;
      const at = await positions.resumeAt(1, 0);
      await positions.advance(0, at, "9");
    };
    await positions.watch(async () => 1);
    expect(seeks).toEqual([]);
    // With no batch under way, a newly given partition is sought to where the view stands.
    positions.assigned([]);
    positions.assigned([0]);
    await positions.watch(async () => 1);
    expect(seeks).toEqual([[0, "9"]]);
  });
  it("leaves alone a newly given partition whose batch began while the watcher read another's position", async () => {
    const { positions, seeks } = batchOfPartition1DuringSecondRead({
      epoch: "e0",
      state: "live",
      checkpoints: new Map([
        ["t:0", "4"],
        ["t:1", "4"],
      ]),
    });
    await positions.watch(async () => 1);
    expect(seeks).toEqual([[0, "4"]]);
    expect(await positions.resumeAt(1, 1)).toMatchObject({ next: "9", stored: "9" });
  });

  it("leaves alone a partition whose batch began while the watcher opened the first epoch and sought the others", async () => {
    // Partition 1's batch opens the epoch itself.
    const { positions, seeks, opened } = batchOfPartition1DuringSecondRead();
    await positions.watch(async () => 1);
    expect(opened).toHaveLength(1);
    expect(seeks).toEqual([[0, "0"]]);
    expect(await positions.resumeAt(1, 1)).toMatchObject({ epoch: "e1", next: "9", stored: "9" });
  });

  it("guards a chunk's calls with the counts its partition's checkpoint recorded and the call ids its own calls may have left, and records what they left", async () => {
    const recorded = new Map([["t:0", new Map([[7, 5]])]]);
    const { positions, record } = fakes({
      record: { epoch: "e0", state: "live", checkpoints: new Map([["t:0", "4"]]), shardWrites: recorded },
      shardCounts: new Map([[7, 5]]),
    });
    const at = await positions.resumeAt(1, 0);
    const chunk = positions.shardWrites(at);
    expect(chunk.least(7)).toBe(5);
    expect(chunk.callIds(7)).toEqual([]);
    expect(chunk.least(8)).toBe(0);
    chunk.wrote(8, 3, "t3");
    chunk.unconfirmed(8, "t4");
    expect(chunk.callIds(8), "a call whose reply never came may have left its id").toEqual(["t3", "t4"]);
    chunk.wrote(8, 5, "t5");
    expect(chunk.written).toEqual(new Map([[8, 5]]));
    // The next chunk of the position, moved on or not, expects the id of the last call.
    const moved = await positions.advance(0, at, "9", undefined, chunk.written);
    expect(moved && positions.shardWrites(moved).callIds(8)).toEqual(["t5"]);
    expect(record().shardWrites?.get("t:0")).toEqual(
      new Map([
        [7, 5],
        [8, 5],
      ]),
    );
  });

  it("claims a partition once per group assignment, not each time it repositions", async () => {
    const { positions, fences } = fakes({ record: { epoch: "e", state: "live" } });
    positions.assigned([0]);
    const first = await positions.resumeAt(1, 0);
    await positions.watch(async () => 1, true);
    expect((await positions.resumeAt(1, 0)).fence).toBe(first.fence);
    expect(fences.get("t:0")).toBe(first.fence);
    positions.assigned([0]);
    await positions.watch(async () => 1, true);
    expect(Number((await positions.resumeAt(1, 0)).fence)).toBeGreaterThan(Number(first.fence));
  });

  it("stops writing a partition a later writer claimed, and claims again past a fence the log no longer records", async () => {
    const { positions, fences } = fakes({ record: { epoch: "e", state: "live" } });
    positions.assigned([0]);
    const at = await positions.resumeAt(1, 0);
    // Another worker claimed after this one: the partition is not this worker's any more.
    fences.set("t:0", String(Number(at.fence) + 1));
    expect(await positions.fenced(0, at, String(Number(at.fence) + 1))).toBe(true);
    // The log lost its claims (emptied, or an older snapshot) while a shard kept a later one.
    fences.delete("t:0");
    expect(await positions.fenced(0, at, "100")).toBe(false);
    await positions.watch(async () => 1, true);
    const reclaimed = await positions.resumeAt(1, 0);
    expect(Number(reclaimed.fence)).toBeGreaterThan(100);
    // A rebalance gave the partition to another member: nothing is claimed for it any more.
    positions.assigned([1]);
    expect(await positions.fenced(0, reclaimed, String(Number(reclaimed.fence) + 1))).toBe(true);
    expect(fences.get("t:0")).toBe(reclaimed.fence);
  });

  it("replays the whole topic in a new epoch when a shard holds fewer writes than the checkpoints recorded", async () => {
    const { positions, opened, seeks, metrics } = fakes({
      low: "0",
      high: "10",
      record: {
        epoch: "e0",
        state: "live",
        checkpoints: new Map([["t:0", "9"]]),
        shardWrites: new Map([["t:0", new Map([[7, 5]])]]),
      },
      shardCounts: new Map([[7, 2]]),
    });
    positions.assigned([0]);
    await positions.watch(async () => 1);
    expect(opened).toEqual([
      expect.objectContaining({
        expected: "e0",
        state: "replaying",
        reset: true,
        targets: new Map([["t:0", "10"]]),
      }),
    ]);
    expect(opened[0]?.reason).toMatch(/lost writes .*\(shards 7\)/);
    expect((await metrics.epochsOpened.get()).values).toEqual([
      expect.objectContaining({ labels: { cause: "shardBehind" }, value: 1 }),
    ]);
    // Every partition starts over from the topic's beginning, and the new epoch expects nothing of the shard.
    expect(seeks).toEqual([[0, "0"]]);
    const at = await positions.resumeAt(1, 0);
    expect(at).toMatchObject({ epoch: "e1", next: "0", stored: null });
    expect(positions.shardWrites(at).least(7)).toBe(0);
  });

  it("replays the whole topic when a write finds its shard behind what this worker wrote there", async () => {
    const { positions, opened } = fakes({
      record: { epoch: "e0", state: "live", checkpoints: new Map([["t:0", "4"]]) },
    });
    const at = await positions.resumeAt(1, 0);
    positions.shardWrites(at).wrote(3, 4, "t4");
    await positions.shardBehind(at, [3]);
    expect(opened).toEqual([expect.objectContaining({ expected: "e0", reset: true })]);
    // Another worker's report of the same loss finds the epoch replaced: nothing more is opened.
    await positions.shardBehind(at, [3]);
    expect(opened).toHaveLength(1);
  });
});
