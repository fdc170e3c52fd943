import { createRecordingProducer } from "@vu/events";
import { redisTargets, waitFor } from "@vu/infra";
import type { RedisClient } from "@vu/store";
import { counterTotal, type IsolatedNames, recordingEvent } from "@vu/testkit";
import { collectDeadLetters, isolatedTopics, testKafka } from "@vu/testkit/kafka";
import { useRedisTarget } from "@vu/testkit/redis";
import { compareWithStore, expectedBlocks, keyspaceOf } from "@vu/testkit/store";
import { waitForCounterTotal, waitForValue } from "@vu/testkit/waitForValue";
import { QUICK_REBALANCE_ENV, startInProcessWorker } from "@vu/testkit/worker";
import { describe, expect, it, onTestFinished } from "vitest";

const kafka = testKafka();
let redis: RedisClient;

const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();

async function produce(
  topic: string,
  events: Parameters<ReturnType<typeof createRecordingProducer>["send"]>[0],
) {
  const producer = createRecordingProducer({ kafka, topic });
  await producer.connect();
  await producer.send(events);
  await producer.disconnect();
}

async function expectExact(ctx: IsolatedNames, org: string, expected: ReturnType<typeof expectedBlocks>) {
  await waitFor(async () => (await compareWithStore(redis, keyspaceOf(ctx), org, expected)) === null, {
    timeoutMs: 60_000,
    message: `rollups of ${org} equal the events`,
  }).catch(async (error: unknown) => {
    throw new Error(`${await compareWithStore(redis, keyspaceOf(ctx), org, expected)}`, { cause: error });
  });
}

describe.each(redisTargets())("ingest worker through real Kafka and $name", (target) => {
  useRedisTarget(target, (client) => {
    redis = client;
  });

  it("counts events in every tier exactly, once per recording, late events in their old buckets", async () => {
    const ctx = await isolatedTopics("worker", { partitions: 3 });
    const worker = await startInProcessWorker({ kafka, redis, names: ctx, env: QUICK_REBALANCE_ENV });
    const { metrics } = worker;
    onTestFinished(() => worker.stop());

    const events = [
      recordingEvent("a1", hoursAgo(1)),
      recordingEvent("a2", hoursAgo(1), {
        language_model: null,
        llm_processing_ms: null,
        app_name: "日本語メモ",
      }),
      recordingEvent("a3", hoursAgo(30), { member_email: "Bob@Example.com", voice_processing_ms: null }),
      recordingEvent("late", "2025-10-26T01:30:00+02:00", { duration_ms: 0, word_count: 0 }),
      recordingEvent("g1", hoursAgo(2), { organization_id: "globex", word_count: 7 }),
      // A corrected copy of a1 re-sent later: the first one counted stands.
      recordingEvent("a1", hoursAgo(5), { word_count: 99_999 }),
    ];
    await produce(ctx.topic, events);
    await expectExact(ctx, "acme", expectedBlocks(events, "acme"));
    await expectExact(ctx, "globex", expectedBlocks(events, "globex"));
    // The counter moves once the store has: waited for, not read at once.
    await waitForCounterTotal(metrics.applied, 5, { message: "applied counter" });
    expect(await metrics.applied.get()).toMatchObject({ values: [{ value: 5 }] });
  });

  it("sends malformed messages to the dead-letter topic with their reason and keeps going", async () => {
    const ctx = await isolatedTopics("worker", { partitions: 1 });
    const worker = await startInProcessWorker({ kafka, redis, names: ctx, env: QUICK_REBALANCE_ENV });
    const { metrics } = worker;
    onTestFinished(() => worker.stop());

    const raw = kafka.producer();
    await raw.connect();
    await raw.send({
      topic: ctx.topic,
      messages: [
        { key: "acme", value: "{not json" },
        { key: "acme", value: JSON.stringify({ ...recordingEvent("bad", hoursAgo(1)), duration_ms: -5 }) },
        {
          key: "acme",
          value: JSON.stringify(
            recordingEvent("future", new Date(Date.now() + 48 * 3_600_000).toISOString()),
          ),
        },
        { key: "acme", value: JSON.stringify(recordingEvent("good", hoursAgo(1))) },
      ],
    });
    await raw.disconnect();

    const { letters: dead, stop } = await collectDeadLetters(kafka, ctx.dlqTopic);
    onTestFinished(() => stop());

    // Not yet: says how far each side got, so a timeout tells the worker's part from the reader's.
    const threeRead = async () => {
      if (dead.length === 3) return true;
      throw new Error(
        `${dead.length} read; the worker dead-lettered ${await counterTotal(metrics.deadLettered)}, ` +
          `applied ${await counterTotal(metrics.applied)}, retried ${await counterTotal(metrics.retries)}`,
      );
    };
    await waitFor(threeRead, { timeoutMs: 60_000, message: "three dead letters" });
    expect(dead.map((d) => d.reason)).toEqual([
      expect.stringMatching(/^not valid JSON/),
      expect.stringMatching(/^duration_ms: /),
      "recorded_at: more than 24 hours in the future",
    ]);
    expect(dead.map((d) => d.sourceOffset)).toEqual(["0", "1", "2"]);
    await expectExact(ctx, "acme", expectedBlocks([recordingEvent("good", hoursAgo(1))], "acme"));
    await waitForCounterTotal(metrics.deadLettered, 3, { message: "dead-lettered counter" });
  });

  it("keeps totals exact with two workers sharing the partitions", async () => {
    const ctx = await isolatedTopics("worker", { partitions: 4 });
    const first = await startInProcessWorker({ kafka, redis, names: ctx, env: QUICK_REBALANCE_ENV });
    const second = await startInProcessWorker({ kafka, redis, names: ctx, env: QUICK_REBALANCE_ENV });
    onTestFinished(async () => {
      await first.stop();
      await second.stop();
    });
    // 500 of the 3000 repeat an earlier (organization, recording_id) with other values.
    const events = Array.from({ length: 3000 }, (_, i) =>
      recordingEvent(`r${i % 2500}`, hoursAgo((i * 7) % 2000), {
        organization_id: `org${(i % 2500) % 7}`,
        word_count: i,
      }),
    );
    await produce(ctx.topic, events);
    for (let o = 0; o < 7; o++) await expectExact(ctx, `org${o}`, expectedBlocks(events, `org${o}`));
    const applied = async (w: typeof first) => (await w.metrics.applied.get()).values[0]?.value ?? 0;
    await waitForValue(async () => (await applied(first)) + (await applied(second)), 2500, {
      message: "applied counters of both workers, summed",
    });
  });
});
