import { createRecordingProducer, type RecordingCompleted } from "@vu/events";
import { redisTargets, sleep, waitFor } from "@vu/infra";
import { createLogger } from "@vu/service-runtime";
import { currentGeneration, scanKeys } from "@vu/store";
import { recordingEvent } from "@vu/testkit";
import { collectDeadLetters, isolatedTopics, readAllDeadLetters, testKafka } from "@vu/testkit/kafka";
import { useRedisTarget } from "@vu/testkit/redis";
import { expectedBlocks, keyspaceOf, storedBlocks } from "@vu/testkit/store";
import { QUICK_REBALANCE_ENV, startInProcessWorker, workerConfig } from "@vu/testkit/worker";
import { floorUtc } from "@vu/time-buckets";
import { describe, expect, it, onTestFinished } from "vitest";
import { runRebuild } from "./rebuild";

const kafka = testKafka();
const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();

// On a cluster too: there the live worker and the rebuild, both writing the new generation for a
// moment, meet each other's calls on the shards, which must not read as lost writes.
describe.each(redisTargets())("on $name", (target) => {
  const client = useRedisTarget(target);

  it("replays the topic into a new generation, switches readers, and the live worker follows, with no replay of the view", async () => {
    const redis = client();
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

    // Recordings keep arriving through the rebuild, the switch and the overlap.
    const during: RecordingCompleted[] = [];
    let rebuilding = true;
    const streaming = (async () => {
      while (rebuilding) {
        const event = recordingEvent(`during-${during.length}`, hoursAgo(2), { word_count: 1 });
        await producer.send([event]);
        during.push(event);
        await sleep(50);
      }
    })();
    const result = await runRebuild({
      kafka,
      redis,
      keyspace: keyspaceOf(ctx),
      logger: createLogger("test-rebuild", "silent"),
      overlapMs: 15_000,
      pollMs: 200,
      config: workerConfig(ctx, QUICK_REBALANCE_ENV),
    }).finally(() => {
      rebuilding = false;
    });
    await streaming;
    // The rebuild met both bad messages again, counted them, and did not send them a second time.
    expect(result).toMatchObject({ from: 1, to: 2, deadLettered: 2 });
    expect(result.events).toBeGreaterThanOrEqual(200);
    // The old generation is gone once the readers switched.
    expect(result.deletedKeys).toBeGreaterThan(0);
    const left: string[] = [];
    await scanKeys(redis, keyspaceOf(ctx).generationPattern(1), (keys) => void left.push(...keys));
    expect(left).toEqual([]);
    expect(await readAllDeadLetters(kafka, ctx.dlqTopic)).toHaveLength(2);
    expect(await currentGeneration(redis, keyspaceOf(ctx))).toBe(2);

    // New events after the switch land in generation 2 through the live worker.
    const after = [recordingEvent("new-1", hoursAgo(1), { word_count: 5 })];
    await producer.send(after);
    const expected = expectedBlocks([...before, ...during, ...after], "acme");
    const month = expected.blocks.filter((b) => b.tier === "month");
    await waitFor(
      async () => {
        const snapshot = await storedBlocks(redis, keyspaceOf(ctx), "acme", month, 2);
        return JSON.stringify(snapshot) === JSON.stringify(month.map((b) => b.sums));
      },
      { timeoutMs: 30_000, message: "generation 2 holds every event exactly once" },
    );
    // The live worker took the new generation over as it was: no epoch but its first, no replay.
    const causes = (await live.metrics.epochsOpened.get()).values.map((v) => v.labels.cause);
    expect(causes).toEqual(["first"]);
  });
});
