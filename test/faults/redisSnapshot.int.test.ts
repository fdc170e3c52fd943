import { startRedisServer } from "@vu/infra";
import { createRedisClient } from "@vu/store";
import { counterTotal } from "@vu/testkit";
import { waitUntilCaughtUp, waitUntilViewCaughtUp } from "@vu/testkit/caughtUp";
import { isolatedTopics, testKafka } from "@vu/testkit/kafka";
import { startInProcessWorker } from "@vu/testkit/worker";
import { expect, it, onTestFinished } from "vitest";
import { faultShapes, faultTimeout } from "../support/faultShapes";
import { produceWorkload } from "../support/produce";
import { expectExactAfterFault } from "../support/scenario";

// Fault: Redis comes back from a snapshot taken mid-ingest, after the worker had applied (and
// committed the Kafka offsets of) everything after it: what a crash under `appendfsync everysec`
// or a failover to a lagging replica does. Redis then holds an older, consistent state, and its
// checkpoints say where that state stands in the log: the worker notices that they went back,
// opens a new epoch (readers drop their caches) and replays from them.
const shapes = faultShapes("redis-snapshot", (config) => config.size.faultEvents);

it.each(shapes)(
  "replays what Redis lost when it comes back from an older snapshot, after the offsets moved past it ($shape)",
  async ({ prepared }) => {
    const server = await startRedisServer({ appendonly: false, extraArgs: ["--save", ""] });
    onTestFinished(() => server.dispose());
    const redis = createRedisClient(server.url);
    redis.on("error", () => undefined);
    onTestFinished(() => redis.disconnect());
    const kafka = testKafka();
    const names = await isolatedTopics("snapshot");
    const { messages } = prepared.workload;
    const thirds = [0, 1, 2].map((i) =>
      messages.slice((i * messages.length) / 3, ((i + 1) * messages.length) / 3),
    );

    await produceWorkload(kafka, names.topic, thirds[0] ?? []);
    const worker = await startInProcessWorker({
      kafka,
      redisUrl: server.url,
      names,
      nowMs: prepared.workload.anchorMs,
    });
    onTestFinished(() => worker.stop());
    await waitUntilViewCaughtUp(kafka, names.topic, redis, names.prefix, 120_000);
    await redis.save();

    await produceWorkload(kafka, names.topic, thirds[1] ?? []);
    await waitUntilViewCaughtUp(kafka, names.topic, redis, names.prefix, 120_000);
    await waitUntilCaughtUp(kafka, names.topic, names.groupId, 60_000);
    await server.kill();
    await server.start();

    await produceWorkload(kafka, names.topic, thirds[2] ?? []);
    await waitUntilViewCaughtUp(kafka, names.topic, redis, names.prefix, 180_000);
    const reopened = (await worker.metrics.epochsOpened.get()).values.find(
      (v) => v.labels.cause === "regressed",
    );
    console.info(
      `[redis-snapshot] epochs reopened ${reopened?.value ?? 0}; replayed ${await counterTotal(worker.metrics.replayed)}`,
    );
    expect(reopened?.value, "the worker saw Redis go back and opened a new epoch").toBeGreaterThan(0);

    await expectExactAfterFault(prepared, {
      redisUrl: server.url,
      prefix: names.prefix,
      workerClock: "anchor",
    });
  },
  faultTimeout(shapes, 300_000),
);
