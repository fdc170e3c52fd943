import { createRecordingProducer } from "@vu/events";
import { waitFor } from "@vu/infra";
import { createLogger } from "@vu/service-runtime";
import { createRedisClient, currentGeneration } from "@vu/store";
import { recordingEvent, redisUrl } from "@vu/testkit";
import { collectDeadLetters, isolatedTopics, readAllDeadLetters, testKafka } from "@vu/testkit/kafka";
import { expectedBlocks, keyspaceOf, storedBlocks } from "@vu/testkit/store";
import { QUICK_REBALANCE_ENV, startInProcessWorker, workerConfig } from "@vu/testkit/worker";
import { floorUtc } from "@vu/time-buckets";
import { afterAll, expect, it, onTestFinished } from "vitest";
import { runRebuild } from "./rebuild";

const redis = createRedisClient(redisUrl());
const kafka = testKafka();
afterAll(() => redis.quit());
const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();

it("replays the topic into a new generation, switches readers, and the live worker follows", async () => {
  const ctx = await isolatedTopics("worker", { partitions: 2 });
  const live = await startInProcessWorker({ kafka, redis, names: ctx, env: QUICK_REBALANCE_ENV });
  onTestFinished(() => live.stop());
  const producer = createRecordingProducer({ kafka, topic: ctx.topic });
  await producer.connect();
  onTestFinished(() => producer.disconnect());

  const before = Array.from({ length: 200 }, (_, i) =>
    recordingEvent(`r${i}`, hoursAgo(i), { word_count: i }),
  );
  await producer.send(before);
  const raw = kafka.producer();
  await raw.connect();
  await raw.send({
    topic: ctx.topic,
    messages: [
      { key: "acme", value: "{bad" },
      { key: "acme", value: "[]" },
    ],
  });
  await raw.disconnect();
  await waitFor(async () => (await live.metrics.applied.get()).values[0]?.value === 200, {
    timeoutMs: 30_000,
  });
  const dlq = await collectDeadLetters(kafka, ctx.dlqTopic);
  onTestFinished(() => dlq.stop());
  await waitFor(() => dlq.letters.length === 2, {
    timeoutMs: 30_000,
    message: "the live worker's dead letters",
  });
  // Damage generation 1 by hand: a rebuild must not carry this over.
  const damaged = floorUtc("month", Date.parse(before[0]?.recorded_at ?? ""));
  await redis.del(...keyspaceOf(ctx).blockKeys(1, "acme", "month", damaged));

  const result = await runRebuild({
    kafka,
    redis,
    keyspace: keyspaceOf(ctx),
    logger: createLogger("test-rebuild", "silent"),
    overlapMs: 1_500,
    pollMs: 200,
    config: workerConfig(ctx, QUICK_REBALANCE_ENV),
  });
  // The rebuild met both bad messages again, counted them, and did not send them a second time.
  expect(result).toMatchObject({ from: 1, to: 2, events: 200, deadLettered: 2 });
  // The old generation is gone once the readers switched.
  expect(result.deletedKeys).toBeGreaterThan(0);
  expect(await redis.keys(keyspaceOf(ctx).generationPattern(1))).toEqual([]);
  expect(await readAllDeadLetters(kafka, ctx.dlqTopic)).toHaveLength(2);
  expect(await currentGeneration(redis, keyspaceOf(ctx))).toBe(2);

  // New events after the switch land in generation 2 through the live worker.
  const after = [recordingEvent("new-1", hoursAgo(1), { word_count: 5 })];
  await producer.send(after);
  const expected = expectedBlocks([...before, ...after], "acme");
  const month = expected.blocks.filter((b) => b.tier === "month");
  await waitFor(
    async () => {
      const snapshot = await storedBlocks(redis, keyspaceOf(ctx), "acme", month, 2);
      return JSON.stringify(snapshot) === JSON.stringify(month.map((b) => b.sums));
    },
    { timeoutMs: 30_000, message: "generation 2 holds every event exactly once" },
  );
});
