import { createRecordingProducer } from "@vu/events";
import { startRedisCluster, waitFor } from "@vu/infra";
import { createRedisClient } from "@vu/store";
import { recordingEvent } from "@vu/testkit";
import { startApiServer } from "@vu/testkit/api";
import { waitUntilViewCaughtUp } from "@vu/testkit/caughtUp";
import { isolatedTopics, testKafka } from "@vu/testkit/kafka";
import { startInProcessWorker } from "@vu/testkit/worker";
import { expect, it, onTestFinished } from "vitest";
import { emptyMastersButTheLogs } from "../support/clusterFaults";

// Fault: on a Redis Cluster, the masters that do not hold the view's log hash come back empty
// while no worker runs (Kafka unreachable, the workers down). Nothing in the log hash changed, so
// only the shards' write counts tell; the API checks them itself with each refresh of its view and
// answers 503, never 200 with what the surviving master still holds.
it("the API stops answering 200 when a cluster node lost writes, with no worker to notice", async () => {
  const cluster = await startRedisCluster();
  onTestFinished(() => cluster.stop());
  const redis = createRedisClient(cluster.url);
  onTestFinished(async () => {
    await redis.quit();
  });
  const kafka = testKafka();
  const names = await isolatedTopics("cluster-lost", { partitions: 3 });
  const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();
  const producer = createRecordingProducer({ kafka, topic: names.topic });
  await producer.connect();
  await producer.send(
    Array.from({ length: 300 }, (_, i) =>
      recordingEvent(`r${i}`, hoursAgo(i % 200), { organization_id: `org${i % 5}` }),
    ),
  );
  await producer.disconnect();
  const worker = await startInProcessWorker({ kafka, redisUrl: cluster.url, names });
  await waitUntilViewCaughtUp(kafka, names.topic, redis, names.prefix, 120_000);
  await worker.stop();

  const api = await startApiServer({
    nowMs: Date.now(),
    prefix: names.prefix,
    redisUrl: cluster.url,
    openEpoch: false,
  });
  onTestFinished(() => api.close());
  const before = await api.get("/api/v1/stats/summary?start_date=2020-01-01", await api.createToken("org1"));
  expect(before.status).toBe(200);

  expect(await emptyMastersButTheLogs(cluster, names.prefix)).toHaveLength(cluster.nodes.length - 1);

  // A token made now exists whatever node it lands on; the answer must still not be a short 200.
  const token = await api.createToken("org1");
  let last: Response | undefined;
  await waitFor(
    async () => {
      last = await api.get("/api/v1/stats/summary?start_date=2020-01-01", token);
      return last.status === 503;
    },
    { timeoutMs: 10_000, message: "the API answers 503 once a shard lost writes" },
  );
  expect(await last?.text()).toMatch(/lost writes \(shards/);
});
