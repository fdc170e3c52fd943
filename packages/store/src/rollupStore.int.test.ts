import { randomUUID } from "node:crypto";
import { DIMENSIONS, type RecordingCompleted } from "@vu/events";
import { redisTargets } from "@vu/infra";
import { DENSE_RECORDINGS, denseBurstTimes, recording } from "@vu/testkit";
import { useRedisTarget } from "@vu/testkit/redis";
import { storeUnderTest } from "@vu/testkit/store";
import { DAY_MS, DEFAULT_RETENTION } from "@vu/time-buckets";
import { Cluster } from "ioredis";
import { describe, expect, it } from "vitest";
import { createTokenStore, looksLikeToken } from "./auth/tokenStore";
import {
  containerOf,
  LAYOUT_RULE,
  layoutOf,
  parseLayout,
  placementBy,
  STORED_TIERS,
} from "./format/blockPlacement";
import { createKeyspace, type Keyspace, shardOf } from "./format/keyspace";
import { DIMENSION_SETS_FROM, DIMENSIONS_FIELD, DIMENSIONS_FROM_COMBOS } from "./format/organizationExtent";
import { unpackSums } from "./format/sums";
import { type BlockSnapshot, snapshotCellsOf } from "./read/blockSnapshot";
import { sumCells } from "./read/containerCells";
import { createRollupReader } from "./read/rollupReader";
import type { RedisClient } from "./redis/redisClient";
import { PartitionFencedError, ShardBehindError, StoreError } from "./storeError";
import { dedupeWindows } from "./write/batchAggregate";
import { recordingDigest } from "./write/recordingDigest";
import { createRollupWriter } from "./write/rollupWriter";

type Layout = "sparse" | "dense";

/** `redis`, with `seen` given each MULTI a caller makes (to count it, or to act when it runs). */
function onEachMulti(
  redis: RedisClient,
  seen: (multi: ReturnType<RedisClient["multi"]>) => void,
): RedisClient {
  return new Proxy(redis, {
    get(target, property) {
      const value = Reflect.get(target, property, target) as unknown;
      if (property !== "multi") return typeof value === "function" ? value.bind(target) : value;
      return () => {
        const multi = target.multi();
        seen(multi);
        return multi;
      };
    },
  });
}

describe.each(redisTargets())("on $name", (target) => {
  let redis: RedisClient;
  useRedisTarget(target, (client) => {
    redis = client;
  });

  const nowMs = Date.parse("2026-11-22T12:00:00Z");

  const setup = () => storeUnderTest(redis, nowMs);

  const burstTimes = denseBurstTimes("2026-10-05T00:00:00Z");
  const lastOfBurst = String(Date.parse(burstTimes.at(-1) as string));

  /** The kit's recording with the numbers these expectations were written for. */
  const rec = (id: string, at: string, patch: Partial<RecordingCompleted> = {}) =>
    recording(id, at, {
      voice_model: "v1",
      word_count: 100,
      voice_processing_ms: 500,
      llm_processing_ms: 200,
      ...patch,
    });

  /**
   * The keys of a dedupe table (write/lua/includes/seenTables.lua) that exist: its hash, which holds
   * the state "~" (a small table's count of ids, or "all") and a small table's ids, and its set of
   * ids once large.
   */
  async function seenKeys(keyspace: Keyspace, window: number): Promise<string[]> {
    const keys = [keyspace.seenTable(1, "acme", window), keyspace.seenIds(1, "acme", window)];
    const exist = await Promise.all(keys.map((key) => redis.exists(key)));
    return keys.filter((_, i) => exist[i] === 1);
  }

  /** The keys of a dedupe table that hold a recording id. */
  async function holding(keys: readonly string[], id: string): Promise<string[]> {
    const digest = recordingDigest(id);
    const found = await Promise.all(
      keys.map(async (key) =>
        (await redis.type(key)) === "set" ? redis.sismember(key, digest) : redis.hexists(key, digest),
      ),
    );
    return keys.filter((_, i) => found[i] === 1);
  }

  /** A block's cells wherever they are kept: its own key (dense tiers) and its container (sparse). */
  const cellsOf = (snapshot: BlockSnapshot, i: number) => [
    ...(snapshotCellsOf(snapshot).cells[i] ?? []),
    ...(snapshotCellsOf(snapshot).comboCells[i] ?? []),
  ];

  async function totalOf(
    reader: ReturnType<typeof createRollupReader>,
    tier: "day" | "minute" | "month",
    at: string,
  ) {
    const startMs = Date.parse(at);
    const snapshot = await reader.readBlocks(1, "acme", [{ tier, startMs }], "total");
    return sumCells(cellsOf(snapshot, 0));
  }

  /**
   * "dense": acme first counts DENSE_RECORDINGS over one day of October (the same member, models
   * and app as `rec`), which places every tier `projected`, so the tests' November recordings go
   * to block keys per projection; "sparse": they go to containers.
   */
  async function laidOut(layout: Layout, writer: ReturnType<typeof createRollupWriter>) {
    if (layout === "sparse") return;
    const burst = burstTimes.map((at, i) => rec(`burst-${i}`, at));
    await writer.apply(1, "acme", burst);
  }

  /** The key the minute block of `at` is kept in. */
  const minuteKey = (layout: Layout, keyspace: Keyspace, at: string) => {
    const startMs = Date.parse(at);
    return layout === "dense"
      ? keyspace.block(1, "acme", "minute", startMs, "combos")
      : keyspace.container(1, "acme", "minute", containerOf("minute", startMs).startMs);
  };

  describe.each(["sparse", "dense"] as const)("rollup store on real Redis, %s tiers", (layout) => {
    it("counts recordings in every tier with exact sums", async () => {
      const { writer, reader } = setup();
      await laidOut(layout, writer);
      const result = await writer.apply(1, "acme", [
        rec("a", "2026-11-20T10:00:05Z"),
        rec("b", "2026-11-20T10:00:55Z", { voice_processing_ms: null, app_name: 'Zoom, "Büro" =SUM(1)' }),
        rec("c", "2026-11-21T23:59:59Z", { language_model: null, llm_processing_ms: null }),
      ]);
      expect(result).toEqual({ counted: 3, duplicates: 0, replayed: 0 });
      expect(await totalOf(reader, "minute", "2026-11-20T10:00:00Z")).toMatchObject({
        count: 2,
        words: 200,
        voiceMsSum: 500,
        voiceMsCount: 1,
        llmMsCount: 2,
      });
      expect((await totalOf(reader, "month", "2026-11-01T00:00:00Z")).count).toBe(3);
      const day = [{ tier: "day" as const, startMs: Date.parse("2026-11-21T00:00:00Z") }];
      const snapshot = await reader.readBlocks(1, "acme", day, "combos");
      const [comboId] = cellsOf(snapshot, 0);
      expect(snapshotCellsOf(snapshot).combos.get(String(comboId))).toEqual([
        "ada@example.com",
        "v1",
        null,
        "Zoom",
      ]);
      // With a selection, only matching combinations are fetched from block keys, with the same sums
      // (containers come whole: the selection is a hint).
      const selected = await reader.readBlocks(1, "acme", day, "combos", {
        combosMatching: (values) => values[2] === null,
      });
      expect(cellsOf(selected, 0)).toEqual(cellsOf(snapshot, 0));
      const none = await reader.readBlocks(1, "acme", day, "combos", { combosMatching: () => false });
      expect(snapshotCellsOf(none).cells).toEqual([[]]);
      const byLanguage = await reader.readBlocks(1, "acme", day, "language_model");
      const [field, packed] = cellsOf(byLanguage, 0);
      // A dense block answers from its projection; a sparse one gives its combination cells.
      if (layout === "dense") expect(field?.toString()).toBe("");
      else expect(snapshotCellsOf(byLanguage).combos.get(String(field))?.[2]).toBeNull();
      expect(unpackSums(packed as Buffer)).toEqual({
        count: 1,
        words: 100,
        durationMs: 60_000,
        voiceMsSum: 500,
        voiceMsCount: 1,
        llmMsSum: 0,
        llmMsCount: 0,
      });
      expect(await reader.dimensions(1, "acme")).toEqual({
        member_email: ["ada@example.com"],
        voice_model: ["v1"],
        language_model: ["gpt"],
        app_name: ["Zoom", 'Zoom, "Büro" =SUM(1)'],
      });
      // Only the sets asked for (what /stats/dimensions returns has no members).
      expect(await reader.dimensions(1, "acme", ["app_name", "voice_model"])).toEqual({
        voice_model: ["v1"],
        app_name: ["Zoom", 'Zoom, "Büro" =SUM(1)'],
      });
    });

    it("writes nothing when the script fails, so the same batch counts in full once the cause is gone", async () => {
      const { keyspace, writer, reader } = setup();
      await laidOut(layout, writer);
      const org = "acme";
      const batch = [
        rec("a", "2026-11-20T10:00:05Z", { app_name: "Zoom \u0000 \u{1F600}" }),
        rec("b", "2026-11-21T12:00:00Z", { member_email: "new@example.com" }),
      ];
      // A block of the second recording is of the wrong type: a script that wrote as it went would
      // have marked the ids, interned the combinations and added to earlier blocks before failing.
      const poisoned = minuteKey(layout, keyspace, "2026-11-21T12:00:00Z");
      await redis.set(poisoned, "not a hash");
      const failure = await writer.apply(1, org, batch).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(StoreError);
      expect((failure as StoreError).retriable).toBe(false);
      expect(String((failure as StoreError).cause)).toMatch(/WRONGTYPE/);
      expect((await reader.dimensions(1, org, ["app_name"])).app_name).not.toContain("Zoom \u0000 \u{1F600}");
      expect(await redis.hlen(keyspace.combos(1, org))).toBe(layout === "dense" ? 1 : 0);
      expect((await totalOf(reader, "month", "2026-11-01T00:00:00Z")).count).toBe(0);

      await redis.del(poisoned);
      expect(await writer.apply(1, org, batch)).toEqual({ counted: 2, duplicates: 0, replayed: 0 });
      expect((await totalOf(reader, "month", "2026-11-01T00:00:00Z")).count).toBe(2);
      expect((await reader.dimensions(1, org, ["app_name"])).app_name).toEqual([
        "Zoom",
        "Zoom \u0000 \u{1F600}",
      ]);
    });

    it("widens the organization's extent to every counted recording, and only to counted ones", async () => {
      const { keyspace, writer } = setup();
      const extent = () => redis.hmget(keyspace.extent(1, "acme"), "first", "last");
      expect(await extent()).toEqual([null, null]);
      await writer.apply(1, "acme", [rec("a", "2026-11-20T10:00:05Z"), rec("b", "2026-11-21T12:00:00.250Z")]);
      const [first, last] = [Date.parse("2026-11-20T10:00:05Z"), Date.parse("2026-11-21T12:00:00.250Z")];
      expect(await extent()).toEqual([String(first), String(last)]);
      // Inside: unchanged. A repeat of a counted id far outside: not counted, so unchanged too.
      await writer.apply(1, "acme", [rec("c", "2026-11-21T00:00:00Z"), rec("a", "1999-01-01T00:00:00Z")]);
      expect(await extent()).toEqual([String(first), String(last)]);
      await writer.apply(1, "acme", [rec("d", "1969-12-31T23:59:59.999Z")]);
      expect(await extent()).toEqual(["-1", String(last)]);
    });

    it("refuses a truncated batch argument without writing", async () => {
      const { keyspace, writer } = setup();
      const prepared = writer.prepare("acme", [rec("a", "2026-11-20T10:00:05Z")]);
      const cut = { ...prepared, encoded: prepared.encoded.subarray(0, prepared.encoded.length - 3) };
      const failure = await writer.applyPrepared(1, cut).catch((error: unknown) => error);
      expect((failure as StoreError).retriable).toBe(false);
      expect(String((failure as StoreError).cause)).toMatch(/batch truncated/);
      const keys = await redis.keys(`${keyspace.prefix}:*`);
      expect(keys).toEqual([]);
    });

    it("refuses a batch whose id count runs past its end at once, without reading on", async () => {
      const { keyspace, writer } = setup();
      const prepared = writer.prepare("acme", [rec("a", "2026-11-20T10:00:05Z")]);
      const encoded = Buffer.from(prepared.encoded);
      encoded.writeUInt32LE(0xffffffff, 0);
      const failure = await writer
        .applyPrepared(1, { ...prepared, encoded })
        .catch((error: unknown) => error);
      expect(String((failure as StoreError).cause)).toMatch(/batch truncated in its recording digests/);
      expect(await redis.keys(`${keyspace.prefix}:*`)).toEqual([]);
    });

    it("fails before writing when the set a table moves its ids to is of the wrong type", async () => {
      const { keyspace, writer, reader } = setup();
      // 200 ids into a new table: past a listpack's size, they go to its set of ids.
      const batch = Array.from({ length: 200 }, (_, i) => rec(`s-${i}`, "2026-11-20T10:00:00Z"));
      const [window] = dedupeWindows(Date.now(), 7 * DAY_MS);
      const poisoned = keyspace.seenIds(1, "acme", window);
      await redis.set(poisoned, "not a set");
      const failure = await writer.apply(1, "acme", batch).catch((error: unknown) => error);
      expect(String((failure as StoreError).cause)).toMatch(/WRONGTYPE/);
      expect(await redis.exists(keyspace.seenTable(1, "acme", window), keyspace.combos(1, "acme"))).toBe(0);
      await redis.del(poisoned);
      expect(await writer.apply(1, "acme", batch)).toMatchObject({ counted: 200 });
      expect((await totalOf(reader, "month", "2026-11-01T00:00:00Z")).count).toBe(200);
    });

    it("keeps sums exact when a cell outgrows 32 bits, in one batch or across batches", async () => {
      const { writer, reader } = setup();
      await laidOut(layout, writer);
      const big = 4_000_000_000; // fits 32 bits alone, not twice
      await writer.apply(1, "acme", [rec("a", "2026-11-20T10:00:00Z", { duration_ms: big })]);
      await writer.apply(1, "acme", [rec("b", "2026-11-20T11:00:00Z", { duration_ms: big })]);
      await writer.apply(1, "acme", [
        rec("c", "2026-11-20T12:00:00Z", { duration_ms: 2 ** 53 - 1 - 2 * big - 1 }),
        rec("d", "2026-11-20T12:00:01Z", { duration_ms: 1, word_count: 7 }),
      ]);
      const month = await totalOf(reader, "month", "2026-11-01T00:00:00Z");
      expect(month).toMatchObject({ count: 4, durationMs: 2 ** 53 - 1, words: 307 });
      const day = await totalOf(reader, "day", "2026-11-20T00:00:00Z");
      expect(day.durationMs).toBe(2 ** 53 - 1);
    });

    it("counts a recording id once, whatever a later copy says, and keeps the first", async () => {
      const { writer, reader } = setup();
      await laidOut(layout, writer);
      await writer.apply(1, "acme", [rec("a", "2026-11-20T10:00:00Z", { word_count: 7 })]);
      const again = await writer.apply(1, "acme", [
        rec("a", "2026-11-01T08:00:00Z", { word_count: 1000 }),
        rec("b", "2026-11-20T10:00:30Z", { word_count: 3 }),
      ]);
      expect(again).toEqual({ counted: 1, duplicates: 1, replayed: 0 });
      expect((await totalOf(reader, "month", "2026-11-01T00:00:00Z")).words).toBe(10);
      expect((await totalOf(reader, "day", "2026-11-01T00:00:00Z")).count).toBe(0);
      expect(await writer.apply(1, "acme", [rec("a", "2026-11-20T10:00:00Z")])).toEqual({
        counted: 0,
        duplicates: 1,
        replayed: 0,
      });
    });

    it("dedupes by Redis' clock: a writer whose clock is days off still finds a counted id", async () => {
      const { keyspace, reader } = setup();
      const skewed = createRollupWriter({
        redis,
        keyspace,
        dedupeWindowMs: DAY_MS,
        now: () => nowMs + 9 * DAY_MS,
      });
      const daily = createRollupWriter({ redis, keyspace, dedupeWindowMs: DAY_MS, now: () => nowMs });
      await daily.apply(1, "acme", [rec("a", "2026-11-20T10:00:00Z")]);
      expect(await skewed.apply(1, "acme", [rec("a", "2026-11-20T10:00:00Z")])).toMatchObject({
        duplicates: 1,
      });
      expect((await totalOf(reader, "month", "2026-11-01T00:00:00Z")).count).toBe(1);
    });

    it("finds ids in the previous window's table, and counts ids of the window before it again", async () => {
      const { keyspace } = setup();
      const redisMs = async () => {
        const [s, us] = await redis.time();
        return Number(s) * 1000 + Math.floor(Number(us) / 1000);
      };
      // A window whose end is more than a day away on Redis' clock (which the script reads): the
      // current window cannot change during the test. Windows pass by renaming the tables instead.
      const startMs = await redisMs();
      let windowMs = 30 * DAY_MS;
      while (windowMs - (startMs % windowMs) < DAY_MS) windowMs += DAY_MS;
      const [current] = dedupeWindows(startMs, windowMs);
      const writer = createRollupWriter({ redis, keyspace, dedupeWindowMs: windowMs, now: () => nowMs });
      /**
       * Ages the tables by one window, as the passing of time would: each window's keys take the
       * previous window's names, oldest first (RENAME within the organization's hash tag, so on
       * a cluster too); the current window's table is then empty.
       */
      const windowPasses = async () => {
        for (const window of [current - 1, current]) {
          for (const key of await seenKeys(keyspace, window)) {
            const older = key.endsWith(":all")
              ? keyspace.seenIds(1, "acme", window - 1)
              : keyspace.seenTable(1, "acme", window - 1);
            await redis.rename(key, older);
          }
        }
        expect(await seenKeys(keyspace, current)).toEqual([]);
      };
      const batch = (from: number, n: number) =>
        Array.from({ length: n }, (_, i) => rec(`w-${from + i}`, "2026-11-20T10:00:00Z"));
      // 200 ids: a large table, its ids in its set.
      expect(await writer.apply(1, "acme", batch(0, 200))).toMatchObject({ counted: 200 });
      const first = await seenKeys(keyspace, current);
      expect(first).toHaveLength(2);
      expect(await holding(first, "w-0")).toHaveLength(1);
      await windowPasses();
      expect(await seenKeys(keyspace, current - 1)).toHaveLength(2);
      expect(await writer.apply(1, "acme", batch(150, 100))).toEqual({
        counted: 50,
        duplicates: 50,
        replayed: 0,
      });
      await windowPasses();
      // The first window is two windows back now: its ids are past the dedupe window and count again.
      expect(await seenKeys(keyspace, current - 2)).toHaveLength(2);
      expect(await writer.apply(1, "acme", batch(0, 10))).toMatchObject({ counted: 10 });
      // And the window still being checked holds the ids of the second batch counted then.
      expect(await writer.apply(1, "acme", batch(200, 50))).toMatchObject({ counted: 0, duplicates: 50 });
      expect(dedupeWindows(await redisMs(), windowMs)[0], "the window did not change").toBe(current);
    });

    it("applies a replay of any length once: messages at or below the organization's offset are skipped", async () => {
      const { keyspace, writer, reader } = setup();
      const at = (id: string, offset: number) => ({
        ...rec(id, "2026-11-20T10:00:00Z"),
        offset: String(offset),
      });
      const origin = (through: number) => ({ partition: "recordings:3", throughOffset: String(through) });
      expect(await writer.apply(1, "acme", [at("a", 10), at("b", 12)], origin(14))).toEqual({
        counted: 2,
        duplicates: 0,
        replayed: 0,
      });
      expect(await redis.hget(keyspace.extent(1, "acme"), "o:recordings:3")).toBe("14");
      // Long after the dedupe window, a consumer-group reset replays everything: nothing counts twice,
      // and the new message in the same batch counts once.
      await redis.del(keyspace.seenTable(1, "acme", dedupeWindows(Date.now(), 7 * DAY_MS)[0]));
      expect(await writer.apply(1, "acme", [at("a", 10), at("b", 12), at("c", 15)], origin(16))).toEqual({
        counted: 1,
        duplicates: 0,
        replayed: 2,
      });
      // All of it again: nothing written at all, the offset stays.
      expect(await writer.apply(1, "acme", [at("c", 15)], origin(16))).toEqual({
        counted: 0,
        duplicates: 0,
        replayed: 1,
      });
      // A batch of repeats only still records how far it covered.
      expect(await writer.apply(1, "acme", [], origin(30))).toEqual({
        counted: 0,
        duplicates: 0,
        replayed: 0,
      });
      expect(await redis.hget(keyspace.extent(1, "acme"), "o:recordings:3")).toBe("30");
      expect((await totalOf(reader, "month", "2026-11-01T00:00:00Z")).count).toBe(3);
      // Another partition's offsets are its own.
      const other = { partition: "recordings:4", throughOffset: "5" };
      expect(await writer.apply(1, "acme", [at("d", 2)], other)).toMatchObject({ counted: 1 });
    });

    it("keeps a small window's ids in one listpack, and moves them once into a set past its size", async () => {
      const { keyspace, writer } = setup();
      const [window] = dedupeWindows(Date.now(), 7 * DAY_MS);
      const table = keyspace.seenTable(1, "acme", window);
      const ids = Array.from({ length: 3_000 }, (_, i) => `big-${i}`);
      const batch = (from: number, to: number) =>
        ids.slice(from, to).map((id) => rec(id, "2026-11-20T10:00:00Z"));
      expect(await writer.apply(1, "acme", batch(0, 100))).toMatchObject({ counted: 100 });
      expect(await redis.hget(table, "~")).toBe("100");
      expect(await redis.object("ENCODING", table)).toBe("listpack");
      expect(await seenKeys(keyspace, window)).toEqual([table]);
      // A large batch against a small table: its five copies are found (the table read whole).
      expect(await writer.apply(1, "acme", batch(95, 700))).toEqual({
        counted: 600,
        duplicates: 5,
        replayed: 0,
      });
      const keys = await seenKeys(keyspace, window);
      expect(keys).toEqual([table, keyspace.seenIds(1, "acme", window)]);
      expect(await redis.hgetall(table)).toEqual({ "~": "all" });
      expect(await redis.scard(keyspace.seenIds(1, "acme", window))).toBe(700);
      expect(await redis.pexpiretime(keyspace.seenIds(1, "acme", window))).toBe(
        await redis.pexpiretime(table),
      );
      for (let i = 700; i < ids.length; i += 700) await writer.apply(1, "acme", batch(i, i + 700));
      expect(await redis.scard(keyspace.seenIds(1, "acme", window))).toBe(ids.length);
      for (const id of ["big-0", "big-99", "big-1234", "big-2999"])
        expect(await holding(keys, id)).toHaveLength(1);
      // A small batch against a large table.
      const again = await writer.apply(1, "acme", [
        rec("big-17", "2026-11-20T10:00:00Z"),
        rec("big-2500", "2026-11-20T10:00:00Z"),
        rec("new", "2026-11-20T10:00:00Z"),
      ]);
      expect(again).toEqual({ counted: 1, duplicates: 2, replayed: 0 });
    });

    it("lets dedupe tables and minute blocks expire, and keeps organizations apart", async () => {
      const { writer, reader, keyspace } = setup();
      await laidOut(layout, writer);
      await writer.apply(1, "acme", [rec("a", "2026-11-20T10:00:00Z")]);
      await writer.apply(1, "other", [rec("a", "2026-11-20T10:00:00Z", { organization_id: "other" })]);
      // The dedupe windows follow Redis' clock, not the writer's.
      const redisNow = Date.now();
      const keys = await seenKeys(keyspace, dedupeWindows(redisNow, 7 * DAY_MS)[0]);
      expect(await holding(keys, "a")).toHaveLength(1);
      for (const key of keys) {
        const expiry = await redis.pexpiretime(key);
        expect(expiry - redisNow).toBeGreaterThan(7 * DAY_MS - 60_000);
        expect(expiry - redisNow).toBeLessThanOrEqual(14 * DAY_MS);
      }
      const minuteTtl = await redis.pexpiretime(minuteKey(layout, keyspace, "2026-11-20T10:00:00Z"));
      // A container lives as long as its last block: its day's last minute.
      const lastMinute = layout === "dense" ? "2026-11-20T10:00:00Z" : "2026-11-21T00:00:00Z";
      expect(minuteTtl).toBe(Date.parse(lastMinute) + 36 * DAY_MS);
      const dayKey =
        layout === "dense"
          ? keyspace.block(1, "acme", "day", Date.parse("2026-11-20T00:00:00Z"), "total")
          : keyspace.container(1, "acme", "day", Date.parse("2026-01-01T00:00:00Z"));
      expect(await redis.pttl(dayKey)).toBe(-1);
      expect((await totalOf(reader, "day", "2026-11-20T00:00:00Z")).count).toBe(1);
    });
  });

  describe("several organizations in shared script calls", () => {
    /** `n` organizations whose keys share a hash tag, so that one call may hold them on a cluster too. */
    const sameShard = (keyspace: Keyspace, n: number) => {
      const byTag = new Map<string, string[]>();
      for (let i = 0; ; i++) {
        const org = `tenant-${i}`;
        const tag = keyspace.slotTag(org);
        const orgs = [...(byTag.get(tag) ?? []), org];
        if (orgs.length === n) return orgs;
        byTag.set(tag, orgs);
      }
    };
    const monthCount = async (reader: ReturnType<typeof createRollupReader>, org: string) => {
      const snapshot = await reader.readBlocks(
        1,
        org,
        [{ tier: "month", startMs: Date.parse("2026-11-01") }],
        "total",
      );
      return sumCells(cellsOf(snapshot, 0)).count;
    };
    const at = (org: string, id: string, offset: number) => ({
      ...rec(id, "2026-11-20T10:00:00Z", { organization_id: org }),
      offset: String(offset),
    });
    const origin = { partition: "recordings:0", throughOffset: "20" };

    it("groups organizations by hash tag, and settles each one's refusal on its own", async () => {
      const { keyspace, writer, reader } = setup();
      const [a, b, c] = sameShard(keyspace, 3) as [string, string, string];
      await writer.apply(1, a, [at(a, "seen", 1)], { partition: "recordings:0", throughOffset: "1" });
      await writer.apply(1, c, [at(c, "old", 2)], { partition: "recordings:0", throughOffset: "20" });
      const batches = [
        writer.prepare(a, [at(a, "seen", 3), at(a, "new", 4)], origin),
        writer.prepare(b, [at(b, "x", 5), at(b, "y", 6)], origin),
        writer.prepare(c, [at(c, "replayed", 7)], origin),
        writer.prepare("elsewhere", [at("elsewhere", "z", 8)], origin),
      ];
      const groups = writer.groups(batches);
      expect(
        groups
          .flat()
          .map((batch) => batch.org)
          .sort(),
      ).toEqual([a, b, c, "elsewhere"].sort());
      // A cluster runs a script on one slot; a single Redis runs any keys together.
      if (redis instanceof Cluster) {
        for (const group of groups)
          expect(new Set(group.map((batch) => keyspace.slotTag(batch.org))).size).toBe(1);
      } else expect(groups).toHaveLength(1);
      const shared = groups.find((group) => group.some((batch) => batch.org === a));
      expect(shared?.map((batch) => batch.org)).toEqual(expect.arrayContaining([a, b, c]));

      const results = (await Promise.all(groups.map((group) => writer.applyGroup(1, group).run()))).flat();
      const byOrg = new Map(groups.flat().map((batch, i) => [batch.org, results[i]]));
      expect(byOrg.get(a)).toEqual({ counted: 1, duplicates: 1, replayed: 0 });
      expect(byOrg.get(b)).toEqual({ counted: 2, duplicates: 0, replayed: 0 });
      expect(byOrg.get(c)).toEqual({ counted: 0, duplicates: 0, replayed: 1 });
      expect(byOrg.get("elsewhere")).toEqual({ counted: 1, duplicates: 0, replayed: 0 });
      expect([await monthCount(reader, a), await monthCount(reader, b), await monthCount(reader, c)]).toEqual(
        [2, 2, 1],
      );
      expect(await redis.hget(keyspace.extent(1, b), "o:recordings:0")).toBe("20");
    });

    it("writes nothing of any organization when one's key is damaged, and resumes with what is unsettled", async () => {
      const { keyspace, writer, reader } = setup();
      const [a, b] = sameShard(keyspace, 2) as [string, string];
      const batches = [
        writer.prepare(a, [at(a, "p", 1)], origin),
        writer.prepare(b, [at(b, "q", 2)], origin),
      ];
      const poisoned = keyspace.container(1, b, "day", containerOf("day", Date.parse("2026-11-01")).startMs);
      await redis.set(poisoned, "not a hash");
      const [group] = writer.groups(batches);
      const apply = writer.applyGroup(1, group ?? []);
      const failure = await apply.run().catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(StoreError);
      expect(String((failure as StoreError).cause)).toMatch(/WRONGTYPE/);
      expect(apply.progress()).toEqual({
        settled: [],
        unsettled: batches.map((batch) => ({ batch, duplicates: 0, replayed: 0 })),
      });
      expect(await monthCount(reader, a)).toBe(0);
      expect(await redis.exists(keyspace.extent(1, a))).toBe(0);

      await redis.del(poisoned);
      expect(await apply.run()).toEqual([
        { counted: 1, duplicates: 0, replayed: 0 },
        { counted: 1, duplicates: 0, replayed: 0 },
      ]);
      expect(apply.progress().unsettled).toEqual([]);
      expect([await monthCount(reader, a), await monthCount(reader, b)]).toEqual([1, 1]);
    });

    it("keeps a small organization's dimension values in its combination table, in sets once it passes DIMENSION_SETS_FROM", async () => {
      const { keyspace, writer, reader } = setup();
      const extent = keyspace.extent(1, "acme");
      const member = (i: number) =>
        rec(`r${i}`, "2026-11-20T10:00:00Z", {
          member_email: `m${i}@example.com`,
          language_model: i % 2 === 1 ? null : "gpt",
          app_name: i === 0 ? "Zoom \u0000 \u{1F600}" : "Zoom",
        });
      const expected = (n: number) => ({
        member_email: Array.from({ length: n }, (_, i) => `m${i}@example.com`).sort(),
        voice_model: ["v1"],
        language_model: ["gpt"],
        app_name: ["Zoom", "Zoom \u0000 \u{1F600}"],
      });
      await writer.apply(
        1,
        "acme",
        Array.from({ length: DIMENSION_SETS_FROM }, (_, i) => member(i)),
      );
      const sets = DIMENSIONS.map((d) => keyspace.dimension(1, "acme", d));
      expect(await redis.exists(...sets)).toBe(0);
      expect(await redis.hget(extent, DIMENSIONS_FIELD)).toBe(DIMENSIONS_FROM_COMBOS);
      expect(await reader.dimensions(1, "acme")).toEqual(expected(DIMENSION_SETS_FROM));
      // One combination more: the sets hold every value, those counted before included, and the
      // extent's mark is gone.
      await writer.apply(1, "acme", [member(DIMENSION_SETS_FROM)]);
      expect(await redis.hget(extent, DIMENSIONS_FIELD)).toBeNull();
      expect(await redis.scard(keyspace.dimension(1, "acme", "member_email"))).toBe(DIMENSION_SETS_FROM + 1);
      expect(await redis.smembers(keyspace.dimension(1, "acme", "language_model"))).toEqual(["gpt"]);
      expect(await reader.dimensions(1, "acme")).toEqual(expected(DIMENSION_SETS_FROM + 1));
    });

    it("lists a small organization's values exactly when its sets are built between the two reads of a listing", async () => {
      const { keyspace, writer } = setup();
      const member = (i: number) =>
        rec(`r${i}`, "2026-11-20T10:00:00Z", { member_email: `m${i}@example.com` });
      await writer.apply(
        1,
        "acme",
        Array.from({ length: DIMENSION_SETS_FROM }, (_, i) => member(i)),
      );
      // Right after the listing's first MULTI (which sees the extent's mark), one more combination
      // takes the table past the bound: the sets are built and the mark goes.
      let multis = 0;
      const moving = onEachMulti(redis, (multi) => {
        if (++multis !== 1) return;
        const exec = multi.exec.bind(multi);
        multi.exec = (async () => {
          const replies = await exec();
          await writer.apply(1, "acme", [member(DIMENSION_SETS_FROM)]);
          return replies;
        }) as typeof multi.exec;
      });
      const reader = createRollupReader({ redis: moving, keyspace });
      const listed = await reader.dimensionsAtStamp(1, "acme", ["member_email"]);
      expect(multis).toBe(2);
      expect(await redis.hget(keyspace.extent(1, "acme"), DIMENSIONS_FIELD)).toBeNull();
      expect(listed.values.member_email).toHaveLength(DIMENSION_SETS_FROM + 1);
      expect(listed.stamp).toBe(await redis.hget(keyspace.extent(1, "acme"), "stamp"));
    });

    it("lists a small organization's values in one MULTI once a listing saw its mark, and from its sets once they are built", async () => {
      const { keyspace, writer } = setup();
      const member = (i: number) =>
        rec(`r${i}`, "2026-11-20T10:00:00Z", { member_email: `m${i}@example.com` });
      await writer.apply(
        1,
        "acme",
        Array.from({ length: DIMENSION_SETS_FROM }, (_, i) => member(i)),
      );
      let multis = 0;
      const counting = onEachMulti(redis, () => {
        multis++;
      });
      const reader = createRollupReader({ redis: counting, keyspace });
      const listed = async () => {
        multis = 0;
        const { values, stamp } = await reader.dimensionsAtStamp(1, "acme", ["member_email"]);
        expect(stamp).toBe(await redis.hget(keyspace.extent(1, "acme"), "stamp"));
        return { members: values.member_email.length, multis };
      };
      // The first listing finds the mark after reading the (empty) sets; the next reads the table at once.
      expect(await listed()).toEqual({ members: DIMENSION_SETS_FROM, multis: 2 });
      expect(await listed()).toEqual({ members: DIMENSION_SETS_FROM, multis: 1 });
      // The sets are built: the listing that finds the mark gone reads them, and the next reads only them.
      await writer.apply(1, "acme", [member(DIMENSION_SETS_FROM)]);
      await redis.sadd(keyspace.dimension(1, "acme", "member_email"), "only-in-the-set@example.com");
      expect(await listed()).toEqual({ members: DIMENSION_SETS_FROM + 2, multis: 2 });
      expect(await listed()).toEqual({ members: DIMENSION_SETS_FROM + 2, multis: 1 });
    });

    it("adds no dimension value of an organization whose dimension set is damaged, and counts the others alone", async () => {
      const { keyspace, writer, reader } = setup();
      const [a, b] = sameShard(keyspace, 2) as [string, string];
      // b keeps dimension sets: its combination table passed DIMENSION_SETS_FROM (in October).
      const members = Array.from({ length: DIMENSION_SETS_FROM + 1 }, (_, i) =>
        rec(`m${i}`, "2026-10-20T10:00:00Z", { organization_id: b, member_email: `m${i}@example.com` }),
      );
      await writer.apply(1, b, members);
      expect(await redis.scard(keyspace.dimension(1, b, "member_email"))).toBe(DIMENSION_SETS_FROM + 1);
      const batches = [
        writer.prepare(a, [at(a, "p", 1)], origin),
        writer.prepare(
          b,
          [{ ...at(b, "q", 2), event: { ...at(b, "q", 2).event, app_name: "Damaged" } }],
          origin,
        ),
      ];
      await redis.set(keyspace.dimension(1, b, "app_name"), "not a set");
      const [group] = writer.groups(batches);
      const failure = await writer
        .applyGroup(1, group ?? [])
        .run()
        .catch((error: unknown) => error);
      expect(String((failure as StoreError).cause)).toMatch(/WRONGTYPE/);
      expect([await monthCount(reader, a), await monthCount(reader, b)]).toEqual([0, 0]);
      expect(await redis.exists(keyspace.combos(1, a), keyspace.extent(1, a))).toBe(0);
      expect(await redis.hlen(keyspace.combos(1, b))).toBe(DIMENSION_SETS_FROM + 1);
      // Alone, the healthy organization counts (a new one: its values are its combinations').
      expect(await writer.applyPrepared(1, batches[0] as (typeof batches)[0])).toMatchObject({ counted: 1 });
      expect((await reader.dimensions(1, a, ["app_name"])).app_name).toEqual(["Zoom"]);
      await expect(writer.applyPrepared(1, batches[1] as (typeof batches)[1])).rejects.toBeInstanceOf(
        StoreError,
      );
      expect(await monthCount(reader, b)).toBe(0);
    });
  });

  it("on a cluster, counts each partition's calls on its shard, and writes nothing to a shard that lost one of them", async () => {
    const { keyspace, writer, reader } = setup();
    const cluster = redis instanceof Cluster;
    /** One partition's session of calls, as the worker keeps it (partitionPositions.ts). */
    const session = (recorded: ReadonlyMap<number, number> = new Map(), fence = "1") => {
      const calls = new Map<number, { count: number; callId: string }>();
      const shards = {
        fence,
        least: (shard: number) => recorded.get(shard) ?? 0,
        callIds: (shard: number) => {
          const last = calls.get(shard);
          return last === undefined ? [] : [last.callId];
        },
        wrote: (shard: number, count: number, callId: string) => calls.set(shard, { count, callId }),
        unconfirmed: () => undefined,
      };
      return { calls, shards, guard: { checkpoint: null, shards } };
    };
    const batch = (id: string, partition: number, offset: number) =>
      writer.prepare("acme", [{ ...rec(id, "2026-11-20T10:00:00Z"), offset: String(offset) }], {
        partition: `recordings:${partition}`,
        throughOffset: String(offset),
      });
    const p0 = session();
    await writer.applyPrepared(1, batch("a", 0, 1), p0.guard);
    await writer.applyPrepared(1, batch("b", 0, 2), p0.guard);
    // A single Redis is guarded by the checkpoint instead: no shard counts there.
    expect(p0.calls.size).toBe(cluster ? 1 : 0);
    if (!cluster) return;
    const [shard, second] = [...p0.calls][0] ?? [-1, { count: 0, callId: "" }];
    expect(second.count).toBe(2);
    const countKey = keyspace.shardWrites(1, shard);
    const afterFirst = (await redis.hget(countKey, "recordings:0")) ?? "";
    expect(afterFirst).toBe(`2:${second.callId}:1`);

    // The node loses partition 0's last call; partition 1's calls go on counting apart, and bring
    // nothing of partition 0's back.
    await redis.hset(countKey, "recordings:0", "1:lost-call:1");
    const p1 = session();
    await writer.applyPrepared(1, batch("c", 1, 1), p1.guard);
    await writer.applyPrepared(1, batch("d", 1, 2), p1.guard);
    expect([...p1.calls.values()][0]?.count).toBe(2);
    const refused = writer.applyPrepared(1, batch("e", 0, 3), p0.guard);
    await expect(refused).rejects.toBeInstanceOf(ShardBehindError);
    await expect(refused).rejects.toMatchObject({ shard, count: 1 });
    expect(await redis.hget(keyspace.extent(1, "acme"), "o:recordings:0")).toBe("2");

    // A worker that resumes the partition checks the count its checkpoint recorded, having no call id yet.
    const resumed = session(new Map([[shard, 2]]));
    await expect(writer.applyPrepared(1, batch("e", 0, 3), resumed.guard)).rejects.toBeInstanceOf(
      ShardBehindError,
    );
    const caughtUp = session(new Map([[shard, 1]]));
    await writer.applyPrepared(1, batch("e", 0, 3), caughtUp.guard);
    expect([...caughtUp.calls.values()][0]?.count).toBe(2);
    expect((await totalOf(reader, "month", "2026-11-01T00:00:00Z")).count).toBe(5);

    // A call whose reply never came may have run: the next call takes its id as well as the
    // last confirmed one, and no other.
    await redis.hset(countKey, "recordings:0", "3:ghost:1");
    const last = [...caughtUp.calls.values()][0]?.callId ?? "";
    const trusting = { ...caughtUp.guard, shards: { ...caughtUp.shards, callIds: () => [last, "ghost"] } };
    const doubting = { ...caughtUp.guard, shards: { ...caughtUp.shards, callIds: () => [last] } };
    await expect(writer.applyPrepared(1, batch("f", 0, 4), doubting)).rejects.toBeInstanceOf(
      ShardBehindError,
    );
    await writer.applyPrepared(1, batch("f", 0, 4), trusting);
    expect(Number.parseInt((await redis.hget(countKey, "recordings:0")) ?? "", 10)).toBe(4);
  });

  it("on a cluster, refuses the calls of a partition's earlier writer once a later one reached the shard, and finds a later writer's lost calls", async () => {
    const { keyspace, writer, reader } = setup();
    if (!(redis instanceof Cluster)) return;
    /** One writer's session of calls under its claim (`fence`), as partitionPositions.ts keeps it. */
    const session = (fence: string) => {
      const calls = new Map<number, string>();
      const shards = {
        fence,
        least: () => 0,
        callIds: (shard: number) => {
          const last = calls.get(shard);
          return last === undefined ? [] : [last];
        },
        wrote: (shard: number, _count: number, callId: string) => calls.set(shard, callId),
        unconfirmed: () => undefined,
      };
      return { calls, guard: { checkpoint: null, shards } };
    };
    const batch = (id: string, offset: number) =>
      writer.prepare("acme", [{ ...rec(id, "2026-11-20T10:00:00Z"), offset: String(offset) }], {
        partition: "recordings:0",
        throughOffset: String(offset),
      });
    const countKey = keyspace.shardWrites(1, shardOf("acme"));
    // A count written before fences ("<count>:<call id>") reads as fence 0: any writer passes it.
    await redis.hset(countKey, "recordings:0", "0:before-fences");
    const earlier = session("1700000000000001");
    await writer.applyPrepared(1, batch("a", 1), earlier.guard);
    const later = session("1700000000000002");
    // The later writer's first call here replays what the earlier one applied: it writes nothing,
    // and the shard takes its fence all the same.
    expect(await writer.applyPrepared(1, batch("a", 1), later.guard)).toMatchObject({ counted: 0 });
    expect(await redis.hget(countKey, "recordings:0")).toMatch(/^1:\w+:1700000000000002$/);
    const refused = writer.applyPrepared(1, batch("b", 2), earlier.guard);
    await expect(refused).rejects.toBeInstanceOf(PartitionFencedError);
    await expect(refused).rejects.toMatchObject({ fence: "1700000000000002" });
    await writer.applyPrepared(1, batch("b", 2), later.guard);
    expect((await totalOf(reader, "month", "2026-11-01T00:00:00Z")).count).toBe(2);

    // The node goes back to the earlier writer's state: the later one, which wrote here under its
    // fence, finds its calls lost; a writer new here passes the old fence with the count alone.
    await redis.hset(countKey, "recordings:0", `1:${earlier.calls.get(shardOf("acme"))}:1700000000000001`);
    await expect(writer.applyPrepared(1, batch("c", 3), later.guard)).rejects.toBeInstanceOf(
      ShardBehindError,
    );
    const newest = session("1700000000000003");
    await writer.applyPrepared(1, batch("c", 3), newest.guard);
    expect((await totalOf(reader, "month", "2026-11-01T00:00:00Z")).count).toBe(3);
  });

  it("moves an organization's tiers on once its recordings are dense, and sums a block kept in both places", async () => {
    const { keyspace, writer, reader } = setup();
    const october = "2026-10-05T00:00:00Z";
    await writer.apply(1, "acme", [rec("first", october)]);
    // A new organization: weeks and months are not stored, but read from its days.
    expect(await redis.hget(keyspace.extent(1, "acme"), "layout")).toBe("000dd");
    await laidOut("dense", writer);
    // DENSE_RECORDINGS over a day: projected in every tier from now on, for every writer, and
    // each tier's mark is the latest recording counted then; months that started by then are
    // still read from their days.
    const [layout, markOfMonth, derivedMonths] = await redis.hmget(
      keyspace.extent(1, "acme"),
      "layout",
      "mark:M",
      "derived:M",
    );
    expect(layout).toBe("22222");
    expect(markOfMonth).toBe(lastOfBurst);
    expect(derivedMonths).toBe(markOfMonth);
    const other = createRollupWriter({ redis, keyspace, dedupeWindowMs: 7 * DAY_MS, now: () => nowMs });
    expect(await other.apply(1, "acme", [rec("late", october)])).toMatchObject({ counted: 1 });
    const monthKey = keyspace.block(1, "acme", "month", Date.parse("2026-10-01T00:00:00Z"), "total");
    expect(await redis.exists(monthKey)).toBe(1);
    expect((await totalOf(reader, "month", "2026-10-01T00:00:00Z")).count).toBe(DENSE_RECORDINGS + 2);
    // One projection or another, the same sums.
    const month = [{ tier: "month" as const, startMs: Date.parse("2026-10-01T00:00:00Z") }];
    const byApp = await reader.readBlocks(1, "acme", month, "app_name");
    expect(snapshotCellsOf(byApp).cells[0]?.length).toBe(2);
    expect(snapshotCellsOf(byApp).comboCells[0]?.length).toBe(2);
  });

  it("takes no burst for a rate: 1,000 recordings in an organization's first 27 minutes leave its minutes in containers", async () => {
    const { keyspace, writer } = setup();
    const start = Date.parse("2026-11-20T08:00:00Z");
    // One recording first, so the writer knows the layout and the apply script alone moves it.
    await writer.apply(1, "acme", [rec("first", new Date(start).toISOString())]);
    const burst = Array.from({ length: LAYOUT_RULE.minRecordings }, (_, i) =>
      rec(
        `peak-${i}`,
        new Date(start + Math.floor((i * 27 * 60_000) / LAYOUT_RULE.minRecordings)).toISOString(),
      ),
    );
    await writer.apply(1, "acme", burst);
    const [layout, first, last] = await redis.hmget(keyspace.extent(1, "acme"), "layout", "first", "last");
    // 37 a minute over 27 minutes, but judged over a day: minutes in containers, hours projected.
    expect(parseLayout([layout]).placement).toMatchObject({ minute: "container", hour: "projected" });
    expect(layout).toBe(layoutOf(LAYOUT_RULE.minRecordings + 1, Number(last) - Number(first), true).code);
  });

  it("lays a new tenant's first large batch out by its density at once, and refuses a guess the rule does not make", async () => {
    const { keyspace, writer, reader } = setup();
    await laidOut("dense", writer);
    // Dense from its first batch: nothing went to containers, so no tier has a mark.
    const fields = await redis.hgetall(keyspace.extent(1, "acme"));
    expect(fields.layout).toBe("22222");
    expect(Object.keys(fields).filter((f) => f.startsWith("mark:"))).toEqual([]);
    expect(await redis.keys(`${keyspace.orgBase(1, "acme")}s:*`)).toEqual([]);
    expect((await totalOf(reader, "month", "2026-10-01T00:00:00Z")).count).toBe(DENSE_RECORDINGS);

    // "other" counted one recording a year ago; a writer that never heard of it judges a burst
    // alone as dense, but with that old recording the rule says containers: refused, laid out again.
    await writer.apply(1, "other", [rec("old", "2025-11-01T00:00:00Z", { organization_id: "other" })]);
    const fresh = createRollupWriter({ redis, keyspace, dedupeWindowMs: 7 * DAY_MS, now: () => nowMs });
    const burst = Array.from({ length: LAYOUT_RULE.minRecordings }, (_, i) =>
      rec(`b-${i}`, "2026-11-20T10:00:00Z", { organization_id: "other" }),
    );
    expect(await fresh.apply(1, "other", burst)).toMatchObject({ counted: LAYOUT_RULE.minRecordings });
    const [layout] = await redis.hmget(keyspace.extent(1, "other"), "layout");
    const span = Date.parse("2026-11-20T10:00:00Z") - Date.parse("2025-11-01T00:00:00Z");
    expect(parseLayout([layout]).placement).toEqual(
      layoutOf(LAYOUT_RULE.minRecordings + 1, span, true).placement,
    );
  });

  it("places tiers as blockPlacement's rule says: recordings per container and per block over the span of the data", async () => {
    const { keyspace, writer, reader } = setup();
    // 1,000 recordings over ten days: 4 an hour, 100 a day, 700 a week.
    const start = Date.parse("2026-11-01T00:00:00Z");
    const n = LAYOUT_RULE.minRecordings;
    const spread = Array.from({ length: n }, (_, i) =>
      rec(`spread-${i}`, new Date(start + Math.floor((i * 10 * DAY_MS) / n)).toISOString()),
    );
    await writer.apply(1, "acme", spread);
    const [first, last, layout] = await redis.hmget(keyspace.extent(1, "acme"), "first", "last", "layout");
    const span = Number(last) - Number(first);
    const expected = STORED_TIERS.map((tier) => placementBy(tier, n, span, "container"));
    expect(expected).toEqual(["container", "keyed", "projected", "projected", "projected"]);
    expect(Object.values(parseLayout([layout]).placement)).toEqual(expected);
    // The next recordings go to each tier's new place; reads sum old and new.
    await writer.apply(1, "acme", [rec("later", "2026-11-03T10:20:00Z")]);
    const hourStart = Date.parse("2026-11-03T10:00:00Z");
    expect(await redis.exists(keyspace.keyed(1, "acme", "hour", hourStart))).toBe(1);
    const hour = await reader.readBlocks(1, "acme", [{ tier: "hour", startMs: hourStart }], "total");
    expect(sumCells(cellsOf(hour, 0)).count).toBe(
      spread.filter((r) => r.event.recorded_at.startsWith("2026-11-03T10")).length + 1,
    );
  });

  it("reads a small organization's weeks and months from its days, and counts them once after they are stored", async () => {
    const { keyspace, writer, reader } = setup();
    const count = async (
      org: string,
      tier: "week" | "month",
      at: string,
      projection: "total" | "app_name" = "total",
    ) => {
      const snapshot = await reader.readBlocks(1, org, [{ tier, startMs: Date.parse(at) }], projection);
      return sumCells(cellsOf(snapshot, 0)).count;
    };
    const container = (org: string, tier: "week" | "month", at: string) =>
      keyspace.container(1, org, tier, containerOf(tier, Date.parse(at)).startMs);
    // The week of Monday 28 September spans two months.
    await writer.apply(1, "acme", [
      rec("a", "2026-09-28T08:00:00Z"),
      rec("b", "2026-09-30T23:59:59Z"),
      rec("c", "2026-10-02T12:00:00Z"),
    ]);
    expect(
      await redis.exists(container("acme", "week", "2026-09-28"), container("acme", "month", "2026-09-01")),
    ).toBe(0);
    expect(await count("acme", "week", "2026-09-28T00:00:00Z")).toBe(3);
    expect(await count("acme", "week", "2026-09-28T00:00:00Z", "app_name")).toBe(3);
    expect(await count("acme", "month", "2026-09-01T00:00:00Z")).toBe(2);
    expect(await count("acme", "month", "2026-10-01T00:00:00Z")).toBe(1);

    // Dense on 5 October: days leave their containers, so weeks and months are stored from now on;
    // those that started by then are still read from their days, which hold a late recording too.
    await laidOut("dense", writer);
    const [layout, derivedWeeks] = await redis.hmget(keyspace.extent(1, "acme"), "layout", "derived:w");
    expect(layout).toBe("02222");
    expect(derivedWeeks).toBe(lastOfBurst);
    const other = createRollupWriter({ redis, keyspace, dedupeWindowMs: 7 * DAY_MS, now: () => nowMs });
    await other.apply(1, "acme", [rec("late", "2026-09-29T00:00:00Z"), rec("next", "2026-10-12T00:00:00Z")]);
    expect(await redis.exists(keyspace.block(1, "acme", "week", Date.parse("2026-09-28"), "total"))).toBe(1);
    expect(await count("acme", "week", "2026-09-28T00:00:00Z")).toBe(4);
    expect(await count("acme", "month", "2026-09-01T00:00:00Z")).toBe(3);
    expect(await count("acme", "week", "2026-10-05T00:00:00Z")).toBe(DENSE_RECORDINGS);
    expect(await count("acme", "week", "2026-10-12T00:00:00Z")).toBe(1);
    expect(await count("acme", "month", "2026-10-01T00:00:00Z")).toBe(DENSE_RECORDINGS + 2);

    // An extent that counted recordings without a layout: its weeks stay stored.
    const keepingDays = createRollupWriter({
      redis,
      keyspace,
      retention: { ...DEFAULT_RETENTION, day: 400 * DAY_MS },
      dedupeWindowMs: 7 * DAY_MS,
      now: () => nowMs,
    });
    await keepingDays.apply(1, "old", [rec("o1", "2026-09-28T08:00:00Z", { organization_id: "old" })]);
    expect(await redis.hget(keyspace.extent(1, "old"), "layout")).toBe("00000");
    await redis.hdel(keyspace.extent(1, "old"), "layout");
    await writer.apply(1, "old", [rec("o2", "2026-09-29T08:00:00Z", { organization_id: "old" })]);
    expect(await redis.hget(keyspace.extent(1, "old"), "layout")).toBeNull();
    expect(await redis.exists(container("old", "week", "2026-09-28"))).toBe(1);
    expect(await count("old", "week", "2026-09-28T00:00:00Z")).toBe(2);
  });

  describe("token store on real Redis", () => {
    it("creates, finds, lists and revokes tokens stored only as hashes", async () => {
      const keyspace = createKeyspace({ prefix: `test-${randomUUID()}` });
      const tokens = createTokenStore({ redis, keyspace });
      const { token, record } = await tokens.create("acme", "ci");
      expect(looksLikeToken(token)).toBe(true);
      const keys = await redis.keys(`${keyspace.prefix}:*`);
      expect(keys.some((k) => k.includes(token))).toBe(false);
      expect((await tokens.find(token))?.org).toBe("acme");
      expect((await tokens.list("acme")).map((t) => t.id)).toEqual([record.id]);
      expect(await tokens.revoke("acme", record.id)).toBe(true);
      expect((await tokens.find(token))?.revokedAt).not.toBeNull();
      expect(await tokens.revoke("other", record.id)).toBe(false);
    });
  });
});
