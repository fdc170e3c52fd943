import { randomUUID } from "node:crypto";
import type { RecordingCompleted } from "@vu/events";
import { redisTargets } from "@vu/infra";
import { denseBurstTimes, recording } from "@vu/testkit";
import { useRedisTarget } from "@vu/testkit/redis";
import { storeUnderTest } from "@vu/testkit/store";
import { DAY_MS, HOUR_MS, QUARTER_MS, type Tier } from "@vu/time-buckets";
import { describe, expect, it } from "vitest";
import { containerOf } from "./format/blockPlacement";
import { SKETCHED_FIELD } from "./format/organizationExtent";
import type { Projection } from "./format/projections";
import { type PercentileSketch, SKETCHED_TIMES, SketchCounts, sketchKey } from "./format/sketches";
import { snapshotCellsOf } from "./read/blockSnapshot";
import type { createRollupReader } from "./read/rollupReader";
import type { DimensionTest, SummedBucket } from "./read/sumsQuestion";
import type { RedisClient } from "./redis/redisClient";
import type { CountableRecording } from "./write/batchAggregate";

// docs/contract.md §9 `percentiles` in the store: the sketches the apply script merges beside every
// key of cells (combinations, total, dimension projections), read back per (bucket, group) with the
// cells' signs, filters and groups, are exactly the sketches of the recordings the question covers
// (the same keys and counts, not only within 1 %), in every placement and from every projection
// that can answer the question.

/** A small deterministic generator (a test must fail the same way twice). */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
  return {
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: readonly T[]) => items[Math.floor(next() * items.length)] as T,
    chance: (p: number) => next() < p,
  };
}

/** The sketch of exactly these recordings' times, as the store should hand it over. */
function sketchOf(events: readonly RecordingCompleted[]): PercentileSketch {
  const counts = new SketchCounts();
  for (const e of events) {
    if (e.voice_processing_ms !== null) counts.add(sketchKey("voice", e.voice_processing_ms), 1);
    if (e.llm_processing_ms !== null) counts.add(sketchKey("llm", e.llm_processing_ms), 1);
  }
  return counts.sketch();
}

const plain = (sketch: PercentileSketch | undefined) =>
  sketch && { keys: Array.from(sketch.keys), counts: Array.from(sketch.counts) };

/** Each nearest-rank percentile of the sketch within 1 % of the exact one of `events`. */
function expectPercentiles(sketch: PercentileSketch, events: readonly RecordingCompleted[]) {
  for (const time of SKETCHED_TIMES) {
    const values = events
      .map((e) => (time === "voice" ? e.voice_processing_ms : e.llm_processing_ms))
      .filter((v): v is number => v !== null)
      .sort((a, b) => a - b);
    for (const q of [1, 50, 95, 99]) {
      const exact = values[Math.ceil((q * values.length) / 100) - 1];
      const got = sketch.percentile(time, q);
      if (exact === undefined) expect(got).toBeNull();
      else expect(Math.abs((got as number) - exact)).toBeLessThanOrEqual(0.01 * exact);
    }
  }
}

describe.each(redisTargets())("percentile sketches on $name", (target) => {
  let redis: RedisClient;
  useRedisTarget(target, (client) => {
    redis = client;
  });
  const nowMs = Date.parse("2026-11-22T12:00:00Z");

  const setup = (prefix?: string, sketches = true) =>
    storeUnderTest(redis, nowMs, { ...(prefix === undefined ? {} : { prefix }), sketches });

  /** Recordings spread over two days of November, four apps, times from 0 ms to minutes, some null. */
  function workload(seed: number, n: number): CountableRecording[] {
    const random = generator(seed);
    const from = Date.parse("2026-11-20T00:00:00Z");
    return Array.from({ length: n }, (_, i) =>
      recording(`r-${seed}-${i}`, new Date(from + random.int(0, 2 * DAY_MS - 1)).toISOString(), {
        member_email: random.pick(["ada@example.com", "bob@example.com", "cy@example.com"]),
        voice_model: random.pick(["v1", "v2"]),
        language_model: random.chance(0.1) ? null : "gpt",
        app_name: random.pick(["Zoom", "Teams", "Meet", "Slack"]),
        voice_processing_ms: random.chance(0.1)
          ? null
          : random.chance(0.1)
            ? 0
            : random.chance(0.5)
              ? random.int(1, 60)
              : random.int(61, 400_000),
        llm_processing_ms: random.chance(0.15) ? null : random.int(80, 30_000),
      }),
    );
  }

  /** Recordings over a day of October that move every tier of acme to its own keys (projected). */
  const burst = () => denseBurstTimes("2026-10-05T00:00:00Z").map((at, i) => recording(`burst-${i}`, at));

  /** Runs a question with percentiles to its end: each (bucket, group key) → its sketch and count. */
  async function answered(
    reader: ReturnType<typeof createRollupReader>,
    blocks: ReadonlyArray<{ tier: Tier; startMs: number }>,
    buckets: SummedBucket[],
    question: {
      groupBy?: Array<"app_name" | "voice_model">;
      filters?: DimensionTest[];
      activeMembers?: boolean;
      /** The projection read (default: the combinations, which answer any question). */
      projection?: Projection;
    },
  ) {
    const projection = question.projection ?? "combos";
    const snapshot = await reader.readBlocks(1, "acme", blocks, projection, { sketches: true });
    const groups: string[] = [];
    const out = new Map<string, { count: number; sketch: PercentileSketch | undefined }>();
    const steps = snapshot.sumBuckets(
      {
        buckets,
        firstBlock: 0,
        filters: question.filters ?? [],
        groupBy: question.groupBy ?? [],
        groupOf: (values) => {
          const key = JSON.stringify(values);
          const at = groups.indexOf(key);
          if (at >= 0) return at;
          groups.push(key);
          return groups.length - 1;
        },
        activeMembers: question.activeMembers ?? false,
        percentiles: true,
      },
      {
        push(bucket, group, sums, at, extras) {
          out.set(`${bucket} ${groups[group]}`, { count: sums[at] as number, sketch: extras?.sketch });
        },
      },
    );
    while (!steps.next().done) {}
    return out;
  }

  describe.each(["sparse", "dense"] as const)("%s tiers", (layout) => {
    it("hands each (bucket, group) the sketch of exactly its recordings, through merges, covers, quarters and filters", async () => {
      const { writer, reader } = setup();
      if (layout === "dense") await writer.apply(1, "acme", burst());
      const recordings = workload(layout === "dense" ? 7 : 3, 600);
      // Several batches, so cells (and sketches) already stored are merged into by the script.
      for (let i = 0; i < recordings.length; i += 150)
        await writer.apply(1, "acme", recordings.slice(i, i + 150));

      const day1 = Date.parse("2026-11-20T00:00:00Z");
      const hour = Date.parse("2026-11-20T13:00:00Z");
      const blocks = [
        { tier: "day" as const, startMs: day1 },
        { tier: "hour" as const, startMs: hour },
        { tier: "quarter" as const, startMs: hour + QUARTER_MS },
        { tier: "day" as const, startMs: day1 + DAY_MS },
        { tier: "month" as const, startMs: Date.parse("2026-11-01T00:00:00Z") },
      ];
      // Bucket 0: the first day without 13:00-14:00 (a signed cover); bucket 1: the quarter
      // 13:15-13:30; bucket 2: the second day; bucket 3: the month.
      const buckets: SummedBucket[] = [
        { blocks: [{ sign: 1 }, { sign: -1 }] },
        { blocks: [{ sign: 1 }] },
        { blocks: [{ sign: 1 }] },
        { blocks: [{ sign: 1 }] },
      ];
      const inBucket = [
        (t: number) => t >= day1 && t < day1 + DAY_MS && !(t >= hour && t < hour + HOUR_MS),
        (t: number) => t >= hour + QUARTER_MS && t < hour + 2 * QUARTER_MS,
        (t: number) => t >= day1 + DAY_MS && t < day1 + 2 * DAY_MS,
        (t: number) => t >= Date.parse("2026-11-01T00:00:00Z"),
      ];
      const expectedOf = (
        passes: (r: CountableRecording) => boolean,
        group: (r: CountableRecording) => string,
      ) => {
        const expected = new Map<string, RecordingCompleted[]>();
        inBucket.forEach((inIt, b) => {
          for (const r of recordings) {
            if (!inIt(r.recordedAtMs) || !passes(r)) continue;
            const key = `${b} ${group(r)}`;
            expected.set(key, [...(expected.get(key) ?? []), r.event]);
          }
        });
        return expected;
      };

      // docs/decisions/0029: each question read from the projection the planner picks for it
      // (dense: their own keys; sparse: the containers' combination cells) and from the
      // combinations: the same, exact sketches.
      const v1 = (v: string | null) => v === "v1";
      const zoomOrMeet = (v: string | null) => v === "Zoom" || v === "Meet";
      const questions = [
        {
          projection: "combos" as const,
          groupBy: ["app_name" as const],
          filters: [{ dimension: "voice_model" as const, passes: v1 }],
          passes: (r: CountableRecording) => v1(r.event.voice_model),
          group: (r: CountableRecording) => JSON.stringify([r.event.app_name]),
        },
        { projection: "total" as const, passes: () => true, group: () => "[]" },
        {
          projection: "app_name" as const,
          groupBy: ["app_name" as const],
          filters: [{ dimension: "app_name" as const, passes: zoomOrMeet }],
          passes: (r: CountableRecording) => zoomOrMeet(r.event.app_name),
          group: (r: CountableRecording) => JSON.stringify([r.event.app_name]),
        },
        {
          projection: "voice_model" as const,
          filters: [{ dimension: "voice_model" as const, passes: v1 }],
          passes: (r: CountableRecording) => v1(r.event.voice_model),
          group: () => "[]",
        },
      ];
      for (const { passes, group, ...question } of questions) {
        const grouped = await answered(reader, blocks, buckets, question);
        const fromCombos = await answered(reader, blocks, buckets, { ...question, projection: "combos" });
        const expected = expectedOf(passes, group);
        expect([...grouped.keys()].sort(), question.projection).toEqual([...expected.keys()].sort());
        for (const [key, events] of expected) {
          const label = `${question.projection} ${key}`;
          expect(grouped.get(key)?.count, label).toBe(events.length);
          expect(plain(grouped.get(key)?.sketch), label).toEqual(plain(sketchOf(events)));
          expect(plain(grouped.get(key)?.sketch), label).toEqual(plain(fromCombos.get(key)?.sketch));
          expectPercentiles(grouped.get(key)?.sketch as PercentileSketch, events);
        }
      }

      // Counting members too: each group's sketch is its pairs' together, from the combinations
      // (grouped by another dimension) or the members' projection (not grouped).
      const withMembers = await answered(reader, blocks, buckets, {
        groupBy: ["voice_model"],
        activeMembers: true,
      });
      const byVoice = expectedOf(
        () => true,
        (r) => JSON.stringify([r.event.voice_model]),
      );
      expect([...withMembers.keys()].sort()).toEqual([...byVoice.keys()].sort());
      for (const [key, events] of byVoice)
        expect(plain(withMembers.get(key)?.sketch), key).toEqual(plain(sketchOf(events)));
      const members = await answered(reader, blocks, buckets, {
        activeMembers: true,
        projection: "member_email",
      });
      const all = expectedOf(
        () => true,
        () => "[]",
      );
      expect([...members.keys()].sort()).toEqual([...all.keys()].sort());
      for (const [key, events] of all)
        expect(plain(members.get(key)?.sketch), key).toEqual(plain(sketchOf(events)));
    });

    it("reads no sketch without being asked, refuses percentiles of such a read, and expires every projection's sketches with its cells", async () => {
      const { keyspace, writer, reader } = setup();
      if (layout === "dense") await writer.apply(1, "acme", burst());
      await writer.apply(1, "acme", workload(11, 20));
      const minute = Date.parse("2026-11-20T10:00:00Z");
      const blocks = [{ tier: "day" as const, startMs: Date.parse("2026-11-20T00:00:00Z") }];
      const plainRead = await reader.readBlocks(1, "acme", blocks, "combos");
      expect(snapshotCellsOf(plainRead).sketches).toBeUndefined();
      const question = {
        buckets: [{ blocks: [{ sign: 1 }] }],
        firstBlock: 0,
        filters: [],
        groupBy: [],
        groupOf: () => 0,
        activeMembers: false,
        percentiles: true,
      };
      expect(() => plainRead.sumBuckets(question, { push() {} }).next()).toThrow(/without sketches/);
      // docs/decisions/0029: the total projection has its sketches as the combinations do.
      const ungrouped = { buckets: [{ blocks: [{ sign: 1 }] }] };
      const [fromTotal, fromCombos] = await Promise.all([
        answered(reader, blocks, ungrouped.buckets, { projection: "total" }),
        answered(reader, blocks, ungrouped.buckets, {}),
      ]);
      expect(fromTotal.get("0 []")?.sketch?.keys.length).toBeGreaterThan(0);
      expect(plain(fromTotal.get("0 []")?.sketch)).toEqual(plain(fromCombos.get("0 []")?.sketch));

      // A minute's cells and their sketches expire together, with retention: in every key of cells.
      const cellsKeys =
        layout === "dense"
          ? (["combos", "total", "member_email", "app_name"] as const).map((projection) =>
              keyspace.block(1, "acme", "minute", minute, projection),
            )
          : [keyspace.container(1, "acme", "minute", containerOf("minute", minute).startMs)];
      await writer.apply(1, "acme", [recording("late", "2026-11-20T10:00:30Z", { voice_processing_ms: 5 })]);
      for (const cellsKey of cellsKeys) {
        const [cellsTtl, sketchTtl] = await Promise.all([
          redis.pexpiretime(cellsKey),
          redis.pexpiretime(keyspace.sketches(cellsKey)),
        ]);
        expect(cellsTtl, cellsKey).toBeGreaterThan(0);
        expect(sketchTtl, cellsKey).toBe(cellsTtl);
        // Sketch fields are the cells' fields.
        const fields = (await redis.hkeys(cellsKey)).sort();
        const sketchFields = await redis.hkeys(keyspace.sketches(cellsKey));
        expect(sketchFields.length, cellsKey).toBeGreaterThan(0);
        expect(
          sketchFields.every((f) => fields.includes(f)),
          cellsKey,
        ).toBe(true);
      }
    });
  });

  it("marks an organization whose every recording has its sketch, and no other", async () => {
    const prefix = `test-${randomUUID()}`;
    const on = setup(prefix, true);
    const off = setup(prefix, false);
    const month = [{ tier: "month" as const, startMs: Date.parse("2026-11-01T00:00:00Z") }];
    const sketched = async (reader: typeof on.reader, org: string) =>
      (await reader.readBlocks(1, org, month, "combos", { sketches: true })).sketched;
    // No recording yet: nothing is missing.
    expect(await sketched(on.reader, "acme")).toBe(true);
    // Counted with sketches from its first recording: marked; a batch without them unmarks it for good.
    await on.writer.apply(1, "acme", workload(21, 5));
    expect(await sketched(on.reader, "acme")).toBe(true);
    await off.writer.apply(1, "acme", workload(22, 5));
    expect(await sketched(on.reader, "acme")).toBe(false);
    await on.writer.apply(1, "acme", workload(23, 5));
    expect(await sketched(on.reader, "acme")).toBe(false);
    // Counted without them first: never marked, even once the writer keeps them.
    await off.writer.apply(1, "globex", workload(24, 5));
    await on.writer.apply(1, "globex", workload(25, 5));
    expect(await sketched(on.reader, "globex")).toBe(false);
    // Marked by the writer that kept sketches beside the combination cells only (the mark's other
    // value): its projections have none, so it reads as not sketched, and stays so.
    await on.writer.apply(1, "initech", workload(26, 5));
    expect(await sketched(on.reader, "initech")).toBe(true);
    await redis.hset(on.keyspace.extent(1, "initech"), SKETCHED_FIELD, "1");
    expect(await sketched(on.reader, "initech")).toBe(false);
    await on.writer.apply(1, "initech", workload(27, 5));
    expect(await sketched(on.reader, "initech")).toBe(false);
    // A question with percentiles is refused there rather than answered from some recordings.
    const snapshot = await on.reader.readBlocks(1, "globex", month, "combos", { sketches: true });
    const question = {
      buckets: [{ blocks: [{ sign: 1 }] }],
      firstBlock: 0,
      filters: [],
      groupBy: [],
      groupOf: () => 0,
      activeMembers: false,
      percentiles: true,
    };
    expect(() => snapshot.sumBuckets(question, { push() {} })).toThrow(/without its sketches/);
  });

  it("counts a batch applied twice once: its duplicates leave the sketches as they were", async () => {
    const { writer, reader } = setup();
    const batch = workload(5, 40);
    await writer.apply(1, "acme", batch);
    const month = [{ tier: "month" as const, startMs: Date.parse("2026-11-01T00:00:00Z") }];
    const before = await answered(reader, month, [{ blocks: [{ sign: 1 }] }], {});
    expect(await writer.apply(1, "acme", batch)).toMatchObject({ counted: 0, duplicates: batch.length });
    const after = await answered(reader, month, [{ blocks: [{ sign: 1 }] }], {});
    expect(plain(after.get("0 []")?.sketch)).toEqual(plain(before.get("0 []")?.sketch));
    expect(plain(after.get("0 []")?.sketch)).toEqual(plain(sketchOf(batch.map((r) => r.event))));
  });
});
