// Producers are other teams' services: here Kafka's own Java client, with every codec it offers,
// keyed as producers key and with explicit partitions, so one organization's recordings and their
// redeliveries land on several partitions. Every recording is counted once; a batch the worker
// cannot decode is dead-lettered whole and stops nothing behind it.
import { waitFor } from "@vu/infra";
import { createRedisClient, type RedisClient } from "@vu/store";
import { brokers, counterTotal, type IsolatedNames, recordingEvent, redisUrl } from "@vu/testkit";
import { type JavaCodec, type JavaRecord, produceWithJavaClient } from "@vu/testkit/javaProducer";
import { collectDeadLetters, isolatedTopics, testKafka } from "@vu/testkit/kafka";
import { compareWithStore, expectedBlocks, keyspaceOf } from "@vu/testkit/store";
import { waitForCounterTotal } from "@vu/testkit/waitForValue";
import { QUICK_REBALANCE_ENV, startInProcessWorker } from "@vu/testkit/worker";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";

const kafka = testKafka();
let redis: RedisClient;
beforeAll(() => {
  redis = createRedisClient(redisUrl());
});
afterAll(() => redis.quit());

const CODECS: JavaCodec[] = ["none", "gzip", "snappy", "lz4", "zstd"];
const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();

async function expectExact(ctx: IsolatedNames, org: string, events: ReturnType<typeof recordingEvent>[]) {
  const expected = expectedBlocks(events, org);
  let diff: string | null = "not compared yet";
  await waitFor(
    async () => {
      diff = await compareWithStore(redis, keyspaceOf(ctx), org, expected);
      return diff === null;
    },
    { timeoutMs: 60_000, message: `the rollups of ${org} equal its events` },
  ).catch((error: unknown) => {
    throw new Error(`${(error as Error).message}: ${diff}`);
  });
}

// Five Java producers one after the other, each a JVM of its own (the first also compiles the
// producer): a few seconds each on an idle machine, many times that on a loaded one (a CI run
// beside a benchmark took the integration default's 120 s). A bound against hangs, not a speed target.
const JAVA_PRODUCERS_TIMEOUT_MS = 300_000;

describe("producers with any codec, through Kafka's Java client", () => {
  it(
    "counts every recording once, whatever codec and partition it came with",
    async () => {
      const ctx = await isolatedTopics("codecs", { partitions: 6 });
      const worker = await startInProcessWorker({ kafka, redis, names: ctx, env: QUICK_REBALANCE_ENV });
      onTestFinished(() => worker.stop());
      const dlq = await collectDeadLetters(kafka, ctx.dlqTopic);
      onTestFinished(() => dlq.stop());

      const byOrg = new Map<string, ReturnType<typeof recordingEvent>[]>();
      for (const codec of CODECS) {
        const org = `org-${codec}`;
        const events = Array.from({ length: 200 }, (_, i) =>
          recordingEvent(`${codec}-${i}`, hoursAgo((i * 5) % 700), { organization_id: org, word_count: i }),
        );
        byOrg.set(org, events);
        const records: JavaRecord[] = events.flatMap((event, i) => {
          const record = { partition: i % 6, key: org, value: JSON.stringify(event) };
          // Every tenth is delivered again, unchanged, on another partition (a producer's retry
          // after a timeout, through a partitioner of its own).
          return i % 10 === 0 ? [record, { ...record, partition: (i + 3) % 6 }] : [record];
        });
        await produceWithJavaClient({ brokers: brokers(), topic: ctx.topic, codec, records });
      }

      for (const [org, events] of byOrg) await expectExact(ctx, org, events);
      // The counters move once the store has: waited for, not read at once.
      await waitForCounterTotal(worker.metrics.applied, 1_000, { message: "applied counter" });
      await waitForCounterTotal(worker.metrics.duplicates, 100, {
        message: "the 100 redeliveries recognised as duplicates",
      });
      expect(dlq.letters).toEqual([]);
      expect(await counterTotal(worker.metrics.undecodableBatches)).toBe(0);
    },
    JAVA_PRODUCERS_TIMEOUT_MS,
  );

  it("dead-letters a batch it cannot decode whole, with its offsets, and counts what follows", async () => {
    const ctx = await isolatedTopics("codecs", { partitions: 1 });
    // Batches that decompress to more than 64 KiB are undecodable to this worker: a small stand-in
    // for a compression bomb, or a codec nobody here knows.
    const env = { ...QUICK_REBALANCE_ENV, KAFKA_MAX_DECOMPRESSED_BATCH_BYTES: "65536" };
    const worker = await startInProcessWorker({ kafka, redis, names: ctx, env });
    onTestFinished(() => worker.stop());
    const dlq = await collectDeadLetters(kafka, ctx.dlqTopic);
    onTestFinished(() => dlq.stop());

    // 1,000 recordings (about 300 KB of JSON) in as few zstd batches as the client makes, then 50
    // uncompressed ones after them on the same partition.
    const event = (id: string) => recordingEvent(id, hoursAgo(2), { organization_id: "bomb" });
    const packed = Array.from({ length: 1_000 }, (_, i) => event(`packed-${i}`));
    const after = Array.from({ length: 50 }, (_, i) => event(`after-${i}`));
    const records = (events: typeof packed) =>
      events.map((e) => ({ partition: 0, key: "bomb", value: JSON.stringify(e) }));
    const properties = { "batch.size": "1048576", "linger.ms": "200" };
    await produceWithJavaClient({
      brokers: brokers(),
      topic: ctx.topic,
      codec: "zstd",
      records: records(packed),
      properties,
    });
    await produceWithJavaClient({
      brokers: brokers(),
      topic: ctx.topic,
      codec: "none",
      records: records(after),
    });

    // One producer on one partition: offsets follow the order sent. Whatever batches the client
    // made, those over the limit are dead-lettered whole and the others counted.
    await waitFor(async () => (await counterTotal(worker.metrics.applied)) + lostOffsets() >= 1_050, {
      timeoutMs: 60_000,
      message: "every offset counted or dead-lettered",
    });
    function lostOffsets() {
      return dlq.letters.reduce((n, l) => n + Number(l.sourceOffset) - Number(l.sourceFirstOffset) + 1, 0);
    }
    const lost = new Set<number>();
    for (const letter of dlq.letters) {
      expect(letter.reason).toMatch(
        /^undecodable_batch: the zstd record batch at offsets \d+-\d+ could not be decoded \(zstd: the batch would decompress to up to \d+ bytes, more than the 65536 allowed\); its records are not counted$/,
      );
      expect(letter.sourcePartition).toBe("0");
      // The value is the record batch as the broker sent it: it starts with its first offset.
      expect(letter.value?.readBigInt64BE(0)).toBe(BigInt(letter.sourceFirstOffset ?? -1));
      for (let o = Number(letter.sourceFirstOffset); o <= Number(letter.sourceOffset); o++) lost.add(o);
    }
    expect(dlq.letters.length).toBeGreaterThan(0);
    expect(lost.size).toBe(lostOffsets());
    // The uncompressed recordings after the bomb are all counted, and so is what it did not hold.
    expect([...lost].every((o) => o < 1_000)).toBe(true);
    await expectExact(ctx, "bomb", [...packed.filter((_, i) => !lost.has(i)), ...after]);
    await waitForCounterTotal(worker.metrics.undecodableBatches, dlq.letters.length, {
      message: "undecodable batches counter",
    });
    await waitForCounterTotal(worker.metrics.undecodableOffsets, lost.size, {
      message: "undecodable offsets counter",
    });
    const readiness = await worker.worker().ready();
    expect(readiness.ok).toBe(false);
    expect(readiness.reasons.join("\n")).toMatch(
      new RegExp(`skipped an undecodable zstd record batch: ${ctx.topic} partition 0 offsets \\d+-\\d+`),
    );
  });
});
