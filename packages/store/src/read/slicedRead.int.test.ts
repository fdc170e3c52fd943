import { randomUUID } from "node:crypto";
import { redisTargets } from "@vu/infra";
import { recording } from "@vu/testkit";
import { useRedisTarget } from "@vu/testkit/redis";
import { DAY_MS } from "@vu/time-buckets";
import { describe, expect, it } from "vitest";
import { createKeyspace } from "../format/keyspace";
import type { RedisClient } from "../redis/redisClient";
import { ReadKeptMovingError } from "../storeError";
import { createRollupWriter } from "../write/rollupWriter";
import { snapshotCellsOf } from "./blockSnapshot";
import { createRollupReader } from "./rollupReader";
import { type KeyReply, readConsistently } from "./slicedRead";

describe.each(redisTargets())("reads in slices on $name", (target) => {
  let redis: RedisClient;
  useRedisTarget(target, (client) => {
    redis = client;
  });

  /** Keys of one hash tag (one slot on a cluster): a large hash, a small one, and the stamp. */
  async function seeded() {
    const tag = `{test-${randomUUID()}}`;
    const large = `${tag}:large`;
    const small = `${tag}:small`;
    const stamp = `${tag}:extent`;
    const entries = Array.from({ length: 600 }, (_, i) => [`f${i}`, `v${i}`]).flat();
    await redis.hset(large, ...entries);
    await redis.hset(small, "a", "1", "b", "2");
    await redis.hset(stamp, "stamp", "1@0");
    // Paged by HSCAN in many pages only as a hashtable: a listpack answers HSCAN in one page.
    expect(await redis.call("OBJECT", "ENCODING", large)).toBe("hashtable");
    return { large, small, stamp };
  }
  /** The client, and how many HLENs the reader's MULTIs have carried (ioredis' multi, recorded). */
  function countingHlens() {
    let count = 0;
    const watched = new Proxy(redis, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver);
        if (name !== "multi" || typeof value !== "function") return value;
        return (...args: unknown[]) => {
          const multi = value.apply(target, args);
          const hlen = multi.hlen.bind(multi);
          multi.hlen = (...keys: Parameters<typeof hlen>) => {
            count++;
            return hlen(...keys);
          };
          return multi;
        };
      },
    });
    return { watched, hlens: () => count };
  }
  const asMap = (reply: KeyReply) => {
    const map = new Map<string, string>();
    for (let i = 0; i + 1 < reply.length; i += 2) map.set(String(reply[i]), String(reply[i + 1]));
    return map;
  };
  const exec = async (multi: ReturnType<RedisClient["multi"]>) =>
    ((await multi.exec()) ?? []).map(([error, reply]) => {
      if (error) throw error;
      return reply;
    });

  it("reads what one MULTI reads, in several calls of at most the budget", async () => {
    const { large, small, stamp } = await seeded();
    const reads = [{ key: small }, { key: large }, { key: small, fields: ["b", "zz", "a"] }];
    const options = {
      stamp: { key: stamp, field: "stamp" },
      addTail: (multi: ReturnType<RedisClient["multi"]>) => multi.hget(stamp, "stamp"),
      exec,
    };
    const whole = await readConsistently(redis, reads, { ...options, budget: 10_000 });
    const sliced = await readConsistently(redis, reads, { ...options, budget: 50 });
    expect(whole.calls).toBe(1);
    expect(sliced.calls).toBeGreaterThan(600 / 50);
    expect(asMap(sliced.replies[1] as KeyReply)).toEqual(asMap(whole.replies[1] as KeyReply));
    expect(asMap(sliced.replies[1] as KeyReply).size).toBe(600);
    expect(asMap(sliced.replies[0] as KeyReply)).toEqual(
      new Map([
        ["a", "1"],
        ["b", "2"],
      ]),
    );
    expect((sliced.replies[2] as KeyReply).map((v) => v?.toString() ?? null)).toEqual(["2", null, "1"]);
    expect(sliced.tail).toEqual(whole.tail);
  });

  it("asks before a read larger than one MULTI, with its fields, and reads nothing when refused", async () => {
    const { large, small, stamp } = await seeded();
    const asked: number[] = [];
    const options = {
      stamp: { key: stamp, field: "stamp" },
      addTail: (multi: ReturnType<RedisClient["multi"]>) => multi.hget(stamp, "stamp"),
      exec,
      budget: 100,
    };
    const admit = async (fields: number) => {
      asked.push(fields);
    };
    await readConsistently(redis, [{ key: small }], { ...options, beforeLargeRead: admit });
    expect(asked).toEqual([]);
    const read = await readConsistently(redis, [{ key: small }, { key: large }], {
      ...options,
      beforeLargeRead: admit,
    });
    expect(asked).toEqual([602]);
    expect(asMap(read.replies[1] as KeyReply).size).toBe(600);
    const refusal = new Error("too large for now");
    let slices = 0;
    const refused = readConsistently(redis, [{ key: large }], {
      ...options,
      beforeLargeRead: async () => {
        throw refusal;
      },
      afterSlice: async () => {
        slices++;
      },
    });
    await expect(refused).rejects.toBe(refusal);
    expect(slices).toBe(0);
  });

  it("slices a read under the large bound without asking, and asks only past it", async () => {
    const { large, small, stamp } = await seeded();
    const asked: number[] = [];
    let slices = 0;
    const options = {
      stamp: { key: stamp, field: "stamp" },
      addTail: (multi: ReturnType<RedisClient["multi"]>) => multi.hget(stamp, "stamp"),
      exec,
      budget: 100,
      beforeLargeRead: async (fields: number) => {
        asked.push(fields);
      },
      afterSlice: async () => {
        slices++;
      },
    };
    const sliced = await readConsistently(redis, [{ key: small }, { key: large }], {
      ...options,
      largeAt: 1_000,
    });
    expect(asked).toEqual([]);
    expect(sliced.calls).toBeGreaterThan(600 / 100);
    expect(slices).toBe(sliced.calls);
    expect(asMap(sliced.replies[1] as KeyReply).size).toBe(600);
    await readConsistently(redis, [{ key: large }], { ...options, largeAt: 500 });
    expect(asked).toEqual([600]);
    // A bound under the budget: asked, then read in one MULTI all the same.
    const whole = await readConsistently(redis, [{ key: small }], { ...options, budget: 10_000, largeAt: 1 });
    expect(asked).toEqual([600, 2]);
    expect(whole.calls).toBe(1);
    // What the caller knows of the size skips asking the sizes only when it is under both bounds.
    await readConsistently(redis, [{ key: small }], { ...options, budget: 10_000, largeAt: 1, atMost: 5 });
    expect(asked).toEqual([600, 2, 2]);
    await readConsistently(redis, [{ key: small }], { ...options, budget: 10_000, largeAt: 10, atMost: 5 });
    expect(asked).toEqual([600, 2, 2]);
  });

  it("starts again when a write lands between slices, and answers the state after it", async () => {
    const { large, small, stamp } = await seeded();
    const reads = [{ key: large }, { key: small }];
    const options = { stamp: { key: stamp, field: "stamp" }, addTail: () => undefined, exec, budget: 100 };
    const quiet = await readConsistently(redis, reads, options);
    let slices = 0;
    const read = await readConsistently(redis, reads, {
      ...options,
      // One batch lands after the first slice of the first try: its cells and its stamp together.
      afterSlice: async () => {
        if (slices++ > 0) return;
        await redis.multi().hset(small, "c", "3").hset(large, "f0", "new").hset(stamp, "stamp", "2@0").exec();
      },
    });
    expect(asMap(read.replies[1] as KeyReply).get("c")).toBe("3");
    expect(asMap(read.replies[0] as KeyReply).get("f0")).toBe("new");
    // The first try ended at the slice that saw the new stamp; the second read everything.
    expect(quiet.calls).toBeGreaterThan(2);
    expect(read.calls).toBe(quiet.calls);
    expect(slices).toBe(2 + quiet.calls);
  });

  it("falls back to one MULTI when the stamp keeps moving, unless the read is large", async () => {
    const { large, small, stamp } = await seeded();
    let n = 1;
    const options = {
      stamp: { key: stamp, field: "stamp" },
      addTail: () => undefined,
      exec,
      budget: 100,
      attempts: 2,
      afterSlice: async () => {
        n++;
        await redis.multi().hset(small, "n", String(n)).hset(stamp, "stamp", `${n}@0`).exec();
      },
    };
    const reads = [{ key: large }, { key: small }];
    const read = await readConsistently(redis, reads, { ...options, largeAt: 1_000 });
    expect(read.calls).toBe(1);
    expect(asMap(read.replies[1] as KeyReply).get("n")).toBe(String(n));
    const refused = readConsistently(redis, reads, { ...options, largeAt: 500 });
    await expect(refused).rejects.toBeInstanceOf(ReadKeptMovingError);
    await expect(refused).rejects.toMatchObject({ fields: 603, attempts: 2, retriable: true });
  });

  it("gives the rollup reader the same blocks, read in slices, as in one MULTI", async () => {
    const keyspace = createKeyspace({ prefix: `test-${randomUUID()}` });
    const writer = createRollupWriter({ redis, keyspace, dedupeWindowMs: DAY_MS, now: () => Date.now() });
    const at = Date.parse("2026-11-20T10:00:00Z");
    const recordings = Array.from({ length: 1_500 }, (_, i) =>
      recording(`r${i}`, new Date(at + (i % 120) * 60_000).toISOString(), { member_email: `m${i}@x.com` }),
    );
    await writer.apply(1, "wide", recordings);
    const blocks = [
      { tier: "hour" as const, startMs: at },
      { tier: "hour" as const, startMs: at + 3_600_000 },
      { tier: "day" as const, startMs: Date.parse("2026-11-20T00:00:00Z") },
    ];
    const whole = createRollupReader({ redis, keyspace });
    const sliced = createRollupReader({ redis, keyspace, sliceFields: 100 });
    for (const projection of ["combos", "member_email", "total"] as const) {
      const expected = await whole.readBlocks(1, "wide", blocks, projection);
      const actual = await sliced.readBlocks(1, "wide", blocks, projection);
      const cells = (s: typeof expected) =>
        [...snapshotCellsOf(s).cells, ...snapshotCellsOf(s).comboCells]
          .map((list) => asMap(list as KeyReply))
          .map((m) => [...m].sort());
      expect(cells(actual)).toEqual(cells(expected));
      expect(actual.stamp).toBe(expected.stamp);
      expect(actual.extent).toEqual(expected.extent);
    }
  });

  it("asks the sizes of keys read whole once: a read of keys known to be small goes in one MULTI", async () => {
    const keyspace = createKeyspace({ prefix: `test-${randomUUID()}` });
    const writer = createRollupWriter({ redis, keyspace, dedupeWindowMs: DAY_MS, now: () => Date.now() });
    const at = Date.parse("2026-11-20T10:00:00Z");
    await writer.apply(
      1,
      "sized",
      Array.from({ length: 1_500 }, (_, i) =>
        recording(`r${i}`, new Date(at + (i % 120) * 60_000).toISOString()),
      ),
    );
    const { watched, hlens } = countingHlens();
    const blocks = [
      { tier: "hour" as const, startMs: at },
      { tier: "hour" as const, startMs: at + 3_600_000 },
    ];
    // 1,500 recordings could fill a slice of 100 fields in any key until the keys' sizes are known.
    const reader = createRollupReader({ redis: watched, keyspace, sliceFields: 100 });
    const first = await reader.readBlocks(1, "sized", blocks, "total");
    const before = hlens();
    const second = await reader.readBlocks(1, "sized", blocks, "total");
    expect(before).toBeGreaterThan(1);
    // The one HLEN left is the combination table's, asked beside the blocks in the same MULTI.
    expect(hlens() - before).toBe(1);
    expect(second.stamp).toBe(first.stamp);
    expect(snapshotCellsOf(second).cells).toEqual(snapshotCellsOf(first).cells);
  });

  it("sizes the keys again when the recordings counted since the request started could fill a slice", async () => {
    const keyspace = createKeyspace({ prefix: `test-${randomUUID()}` });
    const writer = createRollupWriter({ redis, keyspace, dedupeWindowMs: DAY_MS, now: () => Date.now() });
    const at = Date.parse("2026-11-20T10:00:00Z");
    const batch = (from: number, count: number) =>
      Array.from({ length: count }, (_, i) =>
        recording(`r${from + i}`, new Date(at + ((from + i) % 120) * 60_000).toISOString()),
      );
    await writer.apply(1, "growing", batch(0, 50));
    const { watched, hlens } = countingHlens();
    const blocks = [
      { tier: "hour" as const, startMs: at },
      { tier: "hour" as const, startMs: at + 3_600_000 },
    ];
    const reader = createRollupReader({ redis: watched, keyspace, sliceFields: 100 });
    await reader.readBlocks(1, "growing", blocks, "total");
    // Nothing counted since: the stamp's read at a request's start leaves the sizes as they were.
    await reader.writeStamp(1, "growing");
    let before = hlens();
    await reader.readBlocks(1, "growing", blocks, "total");
    expect(hlens() - before).toBe(1);
    // 150 recordings since could have added 150 fields to the hours read: more than a slice.
    await writer.apply(1, "growing", batch(50, 150));
    await reader.writeStamp(1, "growing");
    before = hlens();
    await reader.readBlocks(1, "growing", blocks, "total");
    expect(hlens() - before).toBeGreaterThan(1);
  });

  it("reads a combination table larger than a slice in HSCAN pages, never one HGETALL", async () => {
    const keyspace = createKeyspace({ prefix: `test-${randomUUID()}` });
    const writer = createRollupWriter({ redis, keyspace, dedupeWindowMs: DAY_MS, now: () => Date.now() });
    const at = Date.parse("2026-11-20T10:00:00Z");
    await writer.apply(
      1,
      "wide",
      Array.from({ length: 1_000 }, (_, i) =>
        recording(`r${i}`, new Date(at + (i % 60) * 60_000).toISOString(), { member_email: `m${i}@x.com` }),
      ),
    );
    const combosKey = keyspace.combos(1, "wide");
    expect(await redis.hlen(combosKey)).toBe(1_000);
    // Which commands the sliced reader sends for the table (ioredis' own methods, recorded).
    const sent: string[] = [];
    const watched = new Proxy(redis, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver);
        if (typeof value !== "function") return value;
        return (...args: unknown[]) => {
          if (args.includes(combosKey)) sent.push(name === "call" ? String(args[0]) : String(name));
          return value.apply(target, args);
        };
      },
    });
    const block = [{ tier: "hour" as const, startMs: at }];
    const expected = await createRollupReader({ redis, keyspace }).readBlocks(1, "wide", block, "combos");
    const sliced = createRollupReader({ redis: watched, keyspace, sliceFields: 100 });
    const actual = await sliced.readBlocks(1, "wide", block, "combos");
    expect(snapshotCellsOf(actual).combos.size).toBe(1_000);
    expect(new Map(snapshotCellsOf(actual).combos)).toEqual(new Map(snapshotCellsOf(expected).combos));
    expect(sent).not.toContain("HGETALL");
    expect(sent.filter((name) => name === "hscan").length).toBeGreaterThan(1);

    // A table larger than a large read passes the caller's lane before it is loaded: a filtered
    // question loads the table first, so the lane's first call is for the table's 1,000 fields.
    const lane: number[] = [];
    const fresh = createRollupReader({ redis, keyspace, sliceFields: 100, largeReadFields: 500 });
    await fresh.readBlocks(1, "wide", block, "combos", {
      combosMatching: (values) => values[0] === "m1@x.com",
      beforeLargeRead: async (fields) => {
        lane.push(fields);
      },
    });
    expect(lane[0]).toBe(1_000);
  });
});
