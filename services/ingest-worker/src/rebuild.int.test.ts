import { createRecordingProducer } from "@vu/events";
import { waitFor } from "@vu/infra";
import { createRedisClient, currentGeneration } from "@vu/store";
import { afterAll, expect, it, onTestFinished } from "vitest";
import { runRebuild } from "./rebuild";
import {
  collectDeadLetters,
  event,
  expectedBlocks,
  isolatedIngest,
  redisUrl,
  silentLogger,
  startWorker,
  storedBlocks,
  testKafka,
  testWorkerConfig,
} from "./testing/ingestHarness";

const redis = createRedisClient(redisUrl());
const kafka = testKafka();
afterAll(() => redis.quit());
const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();

it("replays the topic into a new generation, switches readers, and the live worker follows", async () => {
  const ctx = await isolatedIngest(2);
  const live = await startWorker({ kafka, redis, ...ctx });
  onTestFinished(() => live.worker.stop());
  const producer = createRecordingProducer({ kafka, topic: ctx.topic });
  await producer.connect();
  onTestFinished(() => producer.disconnect());

  const before = Array.from({ length: 200 }, (_, i) =>
    event("acme", `r${i}`, hoursAgo(i), { word_count: i }),
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
  await redis.del(ctx.keyspace.block(1, "acme", "month", Date.parse(before[0]?.recorded_at ?? ""), "total"));

  const result = await runRebuild({
    kafka,
    redis,
    keyspace: ctx.keyspace,
    logger: silentLogger,
    overlapMs: 1_500,
    pollMs: 200,
    config: testWorkerConfig(ctx),
  });
  // The rebuild met both bad messages again, counted them, and did not send them a second time.
  expect(result).toMatchObject({ from: 1, to: 2, events: 200, deadLettered: 2 });
  const admin = kafka.admin();
  await admin.connect();
  const offsets = await admin.fetchTopicOffsets(ctx.dlqTopic);
  await admin.disconnect();
  expect(offsets.reduce((n, p) => n + Number(p.high), 0)).toBe(2);
  expect(await currentGeneration(redis, ctx.keyspace)).toBe(2);

  // New events after the switch land in generation 2 through the live worker.
  const after = [event("acme", "new-1", hoursAgo(1), { word_count: 5 })];
  await producer.send(after);
  const expected = expectedBlocks([...before, ...after], "acme");
  const month = expected.blocks.filter((b) => b.tier === "month");
  await waitFor(
    async () => {
      const snapshot = await storedBlocks(redis, ctx.keyspace, "acme", month, 2);
      return JSON.stringify(snapshot) === JSON.stringify(month.map((b) => b.sums));
    },
    { timeoutMs: 30_000, message: "generation 2 holds every event exactly once" },
  );
});
