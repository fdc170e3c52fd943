import { startRedisCluster } from "@vu/infra";
import { createRedisClient } from "@vu/store";
import { counterTotal } from "@vu/testkit";
import { waitUntilCaughtUp, waitUntilViewCaughtUp } from "@vu/testkit/caughtUp";
import { isolatedTopics, testKafka } from "@vu/testkit/kafka";
import { startInProcessWorker } from "@vu/testkit/worker";
import { expect, it, onTestFinished } from "vitest";
import { emptyMastersButTheLogs } from "../support/clusterFaults";
import { faultShapes, faultTimeout } from "../support/faultShapes";
import { produceWorkload } from "../support/produce";
import { expectExactAfterFault } from "../support/scenario";

// Fault: on a Redis Cluster, the masters that do not hold the view's log hash come back empty
// mid-ingest (a restart without persistence, a failover to an empty or lagging replica), while the
// one that holds the checkpoints keeps them. The checkpoints then say more than the rollups hold:
// no single key tells. Each shard counts the script calls that wrote it, and the checkpoints record
// those counts as they move (packages/store/README.md), so the worker sees the shard behind what
// it recorded, refuses to write over it, and replays the topic; every number is exact afterwards.
const shapes = faultShapes("cluster-node-emptied", (config) => config.size.faultEvents);

it.each(shapes)(
  "replays what the cluster's other masters lost while the one with the checkpoints kept them ($shape)",
  async ({ prepared }) => {
    const cluster = await startRedisCluster();
    onTestFinished(() => cluster.stop());
    const redis = createRedisClient(cluster.url);
    onTestFinished(async () => {
      await redis.quit();
    });
    const kafka = testKafka();
    const names = await isolatedTopics("cluster-emptied");
    const { messages } = prepared.workload;
    const half = Math.floor(messages.length / 2);

    await produceWorkload(kafka, names.topic, messages.slice(0, half));
    const worker = await startInProcessWorker({
      kafka,
      redisUrl: cluster.url,
      names,
      nowMs: prepared.workload.anchorMs,
    });
    onTestFinished(() => worker.stop());
    await waitUntilViewCaughtUp(kafka, names.topic, redis, names.prefix, 120_000);
    await waitUntilCaughtUp(kafka, names.topic, names.groupId, 60_000);

    // Every master but the log's loses its keys.
    const emptied = await emptyMastersButTheLogs(cluster, names.prefix);
    expect(emptied, "two of the three masters were emptied").toHaveLength(cluster.nodes.length - 1);

    await produceWorkload(kafka, names.topic, messages.slice(half));
    await waitUntilCaughtUp(kafka, names.topic, names.groupId, 180_000);
    await waitUntilViewCaughtUp(kafka, names.topic, redis, names.prefix, 180_000);
    const opened = (await worker.metrics.epochsOpened.get()).values;
    console.info(
      `[cluster-node-emptied] epochs opened ${JSON.stringify(opened.map((v) => [v.labels.cause, v.value]))}; replayed ${await counterTotal(worker.metrics.replayed)}`,
    );

    expect(
      opened.find((v) => v.labels.cause === "shardBehind")?.value,
      "the worker saw the shards behind their checkpoints and replayed",
    ).toBeGreaterThan(0);

    await expectExactAfterFault(prepared, {
      redisUrl: cluster.url,
      prefix: names.prefix,
      workerClock: "anchor",
    });
  },
  faultTimeout(shapes, 300_000),
);
