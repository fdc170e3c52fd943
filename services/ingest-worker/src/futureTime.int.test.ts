// "More than 24 hours in the future" is measured from the time Kafka stamped on the message, never
// from the worker's clock: a replay a day later (a rebuild, a lost Redis) refuses exactly what the
// live run refused, and counts exactly what it counted.
import { createRecordingProducer } from "@vu/events";
import { waitFor } from "@vu/infra";
import { createRedisClient } from "@vu/store";
import { counterTotal, recordingEvent, redisUrl } from "@vu/testkit";
import { collectDeadLetters, isolatedTopics, testKafka } from "@vu/testkit/kafka";
import { compareWithStore, expectedBlocks, keyspaceOf } from "@vu/testkit/store";
import { QUICK_REBALANCE_ENV, startInProcessWorker } from "@vu/testkit/worker";
import { afterAll, expect, it, onTestFinished } from "vitest";

const redis = createRedisClient(redisUrl());
const kafka = testKafka();
afterAll(() => redis.quit());
const DAY_MS = 24 * 3_600_000;

it("a replay by a worker whose clock is a day later counts and refuses what the live run did", async () => {
  const live = await isolatedTopics("future", { partitions: 2 });
  const startedAt = Date.now();
  const inHours = (h: number) => new Date(startedAt + h * 3_600_000).toISOString();
  const counted = [
    recordingEvent("past", inHours(-3)),
    recordingEvent("soon", inHours(20), { word_count: 7 }),
    recordingEvent("edge", inHours(23.5), { word_count: 9 }),
  ];
  const refused = [recordingEvent("far", inHours(30)), recordingEvent("farther", inHours(47))];
  const producer = createRecordingProducer({ kafka, topic: live.topic });
  await producer.connect();
  await producer.send([...counted, ...refused]);
  await producer.disconnect();

  // Each worker on its own prefix, group and dead-letter topic, both reading the same topic.
  const replay = { ...(await isolatedTopics("future-replay", { partitions: 2 })), topic: live.topic };
  const liveWorker = await startInProcessWorker({ kafka, redis, names: live, env: QUICK_REBALANCE_ENV });
  onTestFinished(() => liveWorker.stop());
  const replayWorker = await startInProcessWorker({
    kafka,
    redis,
    names: replay,
    env: QUICK_REBALANCE_ENV,
    nowMs: startedAt + DAY_MS,
  });
  onTestFinished(() => replayWorker.stop());

  for (const [names, worker] of [
    [live, liveWorker],
    [replay, replayWorker],
  ] as const) {
    const dlq = await collectDeadLetters(kafka, names.dlqTopic);
    onTestFinished(() => dlq.stop());
    await waitFor(() => dlq.letters.length === 2, { timeoutMs: 60_000, message: "two dead letters" });
    expect(dlq.letters.map((l) => l.reason)).toEqual([
      "recorded_at: more than 24 hours in the future",
      "recorded_at: more than 24 hours in the future",
    ]);
    await waitFor(async () => (await counterTotal(worker.metrics.applied)) === 3, { timeoutMs: 60_000 });
    expect(
      await compareWithStore(redis, keyspaceOf(names), "acme", expectedBlocks(counted, "acme")),
    ).toBeNull();
  }
});
