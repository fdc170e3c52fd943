import { randomUUID } from "node:crypto";
import { redisTargets } from "@vu/infra";
import { useRedisTarget } from "@vu/testkit/redis";
import { describe, expect, it } from "vitest";
import { createKeyspace } from "../format/keyspace";
import { ViewNotLiveError } from "../read/liveViews";
import { createRollupReader } from "../read/rollupReader";
import type { RedisClient } from "../redis/redisClient";
import { createLogPosition } from "./logPosition";

describe.each(redisTargets())("the view's position in the log on $name", (target) => {
  let redis: RedisClient;
  useRedisTarget(target, (client) => {
    redis = client;
  });

  function setup() {
    const keyspace = createKeyspace({ prefix: `test-${randomUUID()}` });
    return {
      keyspace,
      log: createLogPosition({ redis, keyspace }),
      reader: createRollupReader({ redis, keyspace }),
    };
  }
  const replay = (targets: Array<[string, string]>) => ({
    expected: null,
    state: "replaying" as const,
    reason: "a new store; replaying the topic",
    targets: new Map(targets),
  });

  it("opens one epoch however many workers race, and goes live once every partition reached its target", async () => {
    const { log } = setup();
    const opened = await Promise.all(
      [1, 2, 3].map(() =>
        log.open(
          1,
          replay([
            ["t:0", "10"],
            ["t:1", "4"],
          ]),
        ),
      ),
    );
    expect(opened.filter((o) => o.opened)).toHaveLength(1);
    const epoch = opened.find((o) => o.opened)?.epoch ?? "";
    expect(new Set(opened.map((o) => o.epoch))).toEqual(new Set([epoch]));
    expect(await log.status(1)).toMatchObject({ epoch, state: "replaying" });

    const advance = (partition: string, expected: string | null, next: string) =>
      log.advance(1, { epoch, partition, expected, next });
    expect(await advance("t:0", null, "6")).toEqual({ kind: "advanced", state: "replaying" });
    expect(await advance("t:0", "6", "10")).toEqual({ kind: "advanced", state: "replaying" });
    expect(await advance("t:1", null, "4")).toEqual({ kind: "advanced", state: "live" });
    expect(await log.status(1)).toEqual({ epoch, state: "live", reason: null });
    expect((await log.read(1)).checkpoints).toEqual(
      new Map([
        ["t:0", "10"],
        ["t:1", "4"],
      ]),
    );
  });

  it("refuses a checkpoint moved by someone else, and tells a worker of another epoch to start over", async () => {
    const { log, keyspace } = setup();
    const { epoch } = await log.open(1, replay([]));
    expect(await log.status(1)).toMatchObject({ state: "live" });
    await log.advance(1, { epoch, partition: "t:0", expected: null, next: "50" });
    expect(await log.advance(1, { epoch, partition: "t:0", expected: "20", next: "30" })).toEqual({
      kind: "moved",
      checkpoint: "50",
    });
    expect(await log.advance(1, { epoch: "older", partition: "t:0", expected: "50", next: "60" })).toEqual({
      kind: "epochChanged",
      epoch,
    });
    // Redis emptied: no epoch at all.
    await redis.del(keyspace.log(1));
    expect(await log.advance(1, { epoch, partition: "t:0", expected: "50", next: "60" })).toEqual({
      kind: "epochChanged",
      epoch: null,
    });
  });

  it("reopens an epoch over restored checkpoints with new targets, and only from the epoch it replaces", async () => {
    const { log } = setup();
    const first = await log.open(1, replay([]));
    await log.advance(1, { epoch: first.epoch, partition: "t:0", expected: null, next: "40" });
    const stale = await log.open(1, { ...replay([["t:0", "90"]]), expected: "not-the-epoch" });
    expect(stale).toEqual({ opened: false, epoch: first.epoch });
    const second = await log.open(1, { ...replay([["t:0", "90"]]), expected: first.epoch });
    expect(second.opened).toBe(true);
    const record = await log.read(1);
    expect(record).toMatchObject({ epoch: second.epoch, state: "replaying" });
    expect(record.checkpoints.get("t:0")).toBe("40");
    expect(record.targets).toEqual(new Map([["t:0", "90"]]));
  });

  it("records a partition's as-of with its checkpoint, in the same call, and the view is as of the earliest", async () => {
    const { log, reader, keyspace } = setup();
    const { epoch } = await log.open(1, replay([]));
    const advance = (partition: string, expected: string | null, next: string, asOfMs?: number) =>
      log.advance(1, { epoch, partition, expected, next, ...(asOfMs === undefined ? {} : { asOfMs }) });
    // Without the argument the script moves the checkpoint alone: no as-of.
    expect(await advance("t:0", null, "10")).toEqual({ kind: "advanced", state: "live" });
    expect((await log.read(1)).asOf).toEqual(new Map());
    expect((await reader.view()).asOfMs).toBeNull();

    expect(await advance("t:0", "10", "20", 1_700_000_000_123)).toEqual({ kind: "advanced", state: "live" });
    expect(await redis.hget(keyspace.log(1), "asof:t:0")).toBe("1700000000123");
    // The same checkpoint again only refreshes the as-of (an idle partition's watcher).
    expect(await advance("t:0", "20", "20", 1_700_000_005_000)).toEqual({ kind: "advanced", state: "live" });
    expect((await log.read(1)).checkpoints.get("t:0")).toBe("20");
    // A partition with a checkpoint and no as-of yet: nothing is known about the view as a whole.
    await advance("t:1", null, "7");
    const fresh = createRollupReader({ redis, keyspace });
    expect((await fresh.view()).asOfMs).toBeNull();
    await advance("t:1", "7", "7", 1_700_000_001_000);
    expect((await log.read(1)).asOf).toEqual(
      new Map([
        ["t:0", 1_700_000_005_000],
        ["t:1", 1_700_000_001_000],
      ]),
    );
    expect((await createRollupReader({ redis, keyspace }).view()).asOfMs).toBe(1_700_000_001_000);

    // Refused advances write nothing, the as-of included.
    expect(await advance("t:1", "3", "9", 1_800_000_000_000)).toEqual({ kind: "moved", checkpoint: "7" });
    expect(
      await log.advance(1, {
        epoch: "older",
        partition: "t:1",
        expected: "7",
        next: "9",
        asOfMs: 1_800_000_000_000,
      }),
    ).toEqual({
      kind: "epochChanged",
      epoch,
    });
    expect(await redis.hget(keyspace.log(1), "asof:t:1")).toBe("1700000001000");
  });

  it("records the shards' write counts with a checkpoint (the highest seen), finds a shard behind them, and drops them with a reset", async () => {
    const { log, keyspace } = setup();
    const { epoch } = await log.open(1, replay([["t:0", "10"]]));
    const advance = (expected: string | null, next: string, shardWrites: Array<[number, number]>) =>
      log.advance(1, { epoch, partition: "t:0", expected, next, shardWrites: new Map(shardWrites) });
    await advance(null, "4", [
      [3, 5],
      [9, 2],
    ]);
    // A slower worker's count below the recorded one leaves it as it is.
    await advance("4", "6", [[3, 4]]);
    const record = await log.read(1);
    expect(record.shardWrites).toEqual(
      new Map([
        [
          "t:0",
          new Map([
            [3, 5],
            [9, 2],
          ]),
        ],
      ]),
    );
    // Per partition, "<count>:<call id>:<fence>" (applyBatches.lua); another partition's count is its own.
    await redis.hset(keyspace.shardWrites(1, 3), "t:0", "5:a", "t:1", "1:b");
    await redis.hset(keyspace.shardWrites(1, 9), "t:0", "7:c");
    expect(await log.shardsBehind(1, record)).toEqual([]);
    await redis.hset(keyspace.shardWrites(1, 3), "t:0", "1:a");
    expect(await log.shardsBehind(1, record)).toEqual([3]);

    const reset = await log.open(1, { ...replay([["t:0", "12"]]), expected: epoch, reset: true });
    expect(reset.opened).toBe(true);
    const after = await log.read(1);
    expect(after).toMatchObject({ epoch: reset.epoch, state: "replaying" });
    expect(after.checkpoints).toEqual(new Map());
    expect(after.shardWrites).toEqual(new Map());
    expect(after.targets).toEqual(new Map([["t:0", "12"]]));
  });

  it("records a topic's id once, keeps it through a reopened and a reset epoch, and drops it with the epoch", async () => {
    const { log, keyspace } = setup();
    const { epoch } = await log.open(1, replay([["t:0", "10"]]));
    expect((await log.read(1)).topicIds).toEqual(new Map());
    // Two workers at once: the first id recorded is the one in force for both.
    const adopted = await Promise.all([log.adoptTopicId(1, "t", "id-a"), log.adoptTopicId(1, "t", "id-b")]);
    expect(adopted[0]).toBe(adopted[1]);
    const first = adopted[0] ?? "";
    expect(await log.adoptTopicId(1, "t", "id-c")).toBe(first);
    expect(await log.adoptTopicId(1, "u", "id-u")).toBe("id-u");
    const ids = new Map([
      ["t", first],
      ["u", "id-u"],
    ]);
    expect((await log.read(1)).topicIds).toEqual(ids);

    const reopened = await log.open(1, { ...replay([["t:0", "12"]]), expected: epoch });
    expect((await log.read(1)).topicIds).toEqual(ids);
    const reset = await log.open(1, { ...replay([["t:0", "12"]]), expected: reopened.epoch, reset: true });
    expect(reset.opened).toBe(true);
    expect((await log.read(1)).topicIds).toEqual(ids);

    // Redis lost the epoch (a stray field may remain): the first epoch after it starts without ids.
    await redis.hdel(keyspace.log(1), "epoch");
    await log.open(1, replay([["t:0", "12"]]));
    expect((await log.read(1)).topicIds).toEqual(new Map());
  });

  it("lets a reader answer only from a live epoch, and only if it is still the same after the read", async () => {
    const { log, reader, keyspace } = setup();
    await expect(reader.view()).rejects.toBeInstanceOf(ViewNotLiveError);
    const { epoch } = await log.open(1, replay([["t:0", "5"]]));
    await expect(reader.view()).rejects.toThrow(/replaying/);
    await log.advance(1, { epoch, partition: "t:0", expected: null, next: "5" });
    const view = await reader.view();
    expect(view).toEqual({ generation: 1, epoch, asOfMs: null });
    await expect(reader.confirm(view)).resolves.toBeUndefined();
    await redis.del(keyspace.log(1));
    await expect(reader.confirm(view)).rejects.toThrow(/no data epoch/);
    await log.open(1, replay([]));
    await expect(reader.confirm(view)).rejects.toThrow(/epoch changed/);
  });

  it("confirms a read of blocks asked to belong to a view as confirm does (its status in the blocks' MULTI on a single Redis)", async () => {
    const { log, reader, keyspace } = setup();
    const { epoch } = await log.open(1, replay([]));
    const view = await reader.view();
    expect(view.epoch).toBe(epoch);
    const read = () =>
      reader.readBlocks(1, "acme", [{ tier: "day", startMs: 0 }], "total", { confirming: view });
    await expect(read()).resolves.toMatchObject({ extent: null });
    await redis.hset(keyspace.log(1), "state", "replaying");
    await expect(read()).rejects.toThrow(/replaying/);
    await redis.del(keyspace.log(1));
    await expect(read()).rejects.toThrow(/no data epoch/);
    await log.open(1, replay([]));
    await expect(read()).rejects.toThrow(/epoch changed/);
    // The view known was dropped: the next one is the new epoch's.
    expect((await reader.view()).epoch).not.toBe(epoch);
  });
});
