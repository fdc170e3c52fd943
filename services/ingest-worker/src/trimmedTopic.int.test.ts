// Every recovery says what it could not recover: a view whose checkpoint the topic has moved past
// (a Redis restored from before the topic's retention deleted events it never applied), or a new
// store on a topic that no longer holds its first events, is `incomplete` with the reason, and the
// API answers 503, never 200 with numbers it knows to be short.
import { createRecordingProducer } from "@vu/events";
import { waitFor } from "@vu/infra";
import { createLogPosition, createRedisClient } from "@vu/store";
import { counterTotal, recordingEvent, redisUrl } from "@vu/testkit";
import { startApiServer } from "@vu/testkit/api";
import { isolatedTopics, testKafka } from "@vu/testkit/kafka";
import { keyspaceOf } from "@vu/testkit/store";
import { QUICK_REBALANCE_ENV, startInProcessWorker } from "@vu/testkit/worker";
import { afterAll, expect, it, onTestFinished } from "vitest";

const redis = createRedisClient(redisUrl());
const kafka = testKafka();
afterAll(() => redis.quit());
const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();
const events = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => recordingEvent(`r${from + i}`, hoursAgo((from + i) % 48)));

async function produce(topic: string, batch: ReturnType<typeof recordingEvent>[]) {
  const producer = createRecordingProducer({ kafka, topic });
  await producer.connect();
  await producer.send(batch);
  await producer.disconnect();
}

/** What retention does: the topic's first offsets of partition 0 are deleted below `offset`. */
async function trim(topic: string, offset: number) {
  const admin = kafka.admin();
  await admin.connect();
  try {
    // kafkajs deletes records only for topics whose metadata its cluster has loaded.
    await admin.fetchTopicMetadata({ topics: [topic] });
    await admin.deleteTopicRecords({ topic, partitions: [{ partition: 0, offset: String(offset) }] });
    const [partition] = await admin.fetchTopicOffsets(topic);
    expect(partition?.low).toBe(String(offset));
  } finally {
    await admin.disconnect();
  }
}

async function expectIncomplete(names: Parameters<typeof keyspaceOf>[0], reason: RegExp) {
  const log = createLogPosition({ redis, keyspace: keyspaceOf(names) });
  await waitFor(async () => (await log.status(1)).state === "incomplete", {
    timeoutMs: 60_000,
    message: "the view is incomplete",
  });
  expect((await log.status(1)).reason).toMatch(reason);
  const api = await startApiServer({
    nowMs: Date.now(),
    prefix: names.prefix,
    orgs: ["acme"],
    openEpoch: false,
  });
  onTestFinished(() => api.close());
  const res = await api.get("/api/v1/stats/summary", api.tokenFor("acme"));
  expect(res.status).toBe(503);
  expect(await res.text()).toMatch(/incomplete/);
}

it("a view restored from before the topic's retention deleted events it never applied is incomplete", async () => {
  const names = await isolatedTopics("trimmed", { partitions: 1 });
  const first = await startInProcessWorker({ kafka, redis, names, env: QUICK_REBALANCE_ENV });
  await produce(names.topic, events(0, 50));
  await waitFor(async () => (await counterTotal(first.metrics.applied)) === 50, { timeoutMs: 60_000 });
  // The view's checkpoint stays at 50 (as a snapshot taken now would hold it) while the topic
  // grows to 100 and retention then deletes everything below 80.
  await first.stop();
  await produce(names.topic, events(50, 50));
  await trim(names.topic, 80);

  const second = await startInProcessWorker({ kafka, redis, names, env: QUICK_REBALANCE_ENV });
  onTestFinished(() => second.stop());
  await expectIncomplete(
    names,
    /^partition 0: the topic no longer holds offsets 50-79, which the view has not applied/,
  );
  // It still applies what the topic holds, and says why it is not ready.
  await waitFor(async () => (await counterTotal(second.metrics.applied)) === 20, { timeoutMs: 60_000 });
  const readiness = await second.worker().ready();
  expect(readiness.reasons.join("\n")).toMatch(
    /the view is incomplete: partition 0: the topic no longer holds/,
  );
});

it("a new store on a topic that no longer holds its first events is incomplete", async () => {
  const names = await isolatedTopics("trimmed", { partitions: 1 });
  await produce(names.topic, events(0, 30));
  await trim(names.topic, 10);
  const worker = await startInProcessWorker({ kafka, redis, names, env: QUICK_REBALANCE_ENV });
  onTestFinished(() => worker.stop());
  await expectIncomplete(
    names,
    /^a new store, and the topic no longer holds its first events \(partitions 0\)/,
  );
});
