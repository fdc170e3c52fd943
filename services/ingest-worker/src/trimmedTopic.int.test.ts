// Every recovery says what it could not recover: a view whose checkpoint the topic has moved past
// (a Redis restored from before the topic's retention deleted events it never applied), a new
// store on a topic that no longer holds its first events, or a view of a topic deleted and created
// again under its name (another topic id), is `incomplete` with the reason, and the API answers
// 503, never 200 with numbers it knows to be short or of another topic.
import { createRecordingProducer } from "@vu/events";
import { ensureTopics, waitFor } from "@vu/infra";
import { createLogger } from "@vu/service-runtime";
import { createLogPosition, createRedisClient } from "@vu/store";
import { brokers, counterTotal, type IsolatedNames, recordingEvent, redisUrl } from "@vu/testkit";
import { startApiServer } from "@vu/testkit/api";
import { isolatedTopics, testKafka } from "@vu/testkit/kafka";
import { keyspaceOf } from "@vu/testkit/store";
import { QUICK_REBALANCE_ENV, startInProcessWorker, workerConfig } from "@vu/testkit/worker";
import { afterAll, expect, it, onTestFinished } from "vitest";
import { runRebuild } from "./rebuild";

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

/** The view is incomplete for `reason` (a pattern, or text it contains), and the API answers 503. */
async function expectIncomplete(names: Parameters<typeof keyspaceOf>[0], reason: RegExp | string) {
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

/** The topic's id now, as the worker asks for it (the patched kafkajs' Metadata v10). */
async function topicId(topic: string): Promise<string> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const { topics } = await admin.fetchTopicIds({ topics: [topic] });
    return topics[0]?.topicId ?? "";
  } finally {
    await admin.disconnect();
  }
}

/** Deletes the topic and creates it again under its name, as the stack creates it: another id. */
async function recreate(names: IsolatedNames): Promise<{ before: string; after: string }> {
  const before = await topicId(names.topic);
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.deleteTopics({ topics: [names.topic] });
    await waitFor(async () => !(await admin.listTopics()).includes(names.topic), {
      timeoutMs: 30_000,
      message: "the topic deleted",
    });
  } finally {
    await admin.disconnect();
  }
  await ensureTopics(brokers(), { topic: names.topic, dlqTopic: names.dlqTopic, partitions: 1 });
  const after = await topicId(names.topic);
  expect(after).not.toBe(before);
  return { before, after };
}

it("a view of a topic deleted and created again is incomplete, naming both ids, until a rebuild adopts the new one", async () => {
  const names = await isolatedTopics("recreated", { partitions: 1 });
  const first = await startInProcessWorker({ kafka, redis, names, env: QUICK_REBALANCE_ENV });
  await produce(names.topic, events(0, 20));
  await waitFor(async () => (await counterTotal(first.metrics.applied)) === 20, { timeoutMs: 60_000 });
  await first.stop();
  const log = createLogPosition({ redis, keyspace: keyspaceOf(names) });
  expect((await log.read(1)).topicIds?.get(names.topic)).toBe(await topicId(names.topic));

  // The new topic holds more than the view's checkpoint (20): by offsets alone its first 20
  // messages would look applied, and the view live.
  const { before, after } = await recreate(names);
  await produce(names.topic, events(100, 30));
  const second = await startInProcessWorker({ kafka, redis, names, env: QUICK_REBALANCE_ENV });
  onTestFinished(() => second.stop());
  const reason = `topic ${names.topic} is not the topic the view counts: its id is ${after}, the view's ${before}`;
  await expectIncomplete(names, reason);
  await waitFor(async () => (await second.worker().ready()).reasons.join("\n").includes(reason), {
    timeoutMs: 10_000,
    message: "the worker's readiness names the topic and both ids",
  });

  // The rebuild replays the new topic from its start into a new generation, which records its id.
  const rebuilt = await runRebuild({
    kafka,
    redis,
    keyspace: keyspaceOf(names),
    logger: createLogger("test-rebuild", "silent"),
    overlapMs: 500,
    pollMs: 200,
    config: workerConfig(names, QUICK_REBALANCE_ENV),
  });
  expect(rebuilt).toMatchObject({ from: 1, to: 2, events: 30 });
  expect(await log.read(2)).toMatchObject({ state: "live", topicIds: new Map([[names.topic, after]]) });
  const api = await startApiServer({
    nowMs: Date.now(),
    prefix: names.prefix,
    orgs: ["acme"],
    openEpoch: false,
  });
  onTestFinished(() => api.close());
  const summary = await api.get("/api/v1/stats/summary?start_date=2000-01-01", api.tokenFor("acme"));
  expect(summary.status).toBe(200);
  expect(await summary.json()).toMatchObject({ total_recordings: 30 });
});

it("a topic deleted and created again under a running worker turns its view incomplete", async () => {
  const names = await isolatedTopics("recreated", { partitions: 1 });
  const worker = await startInProcessWorker({ kafka, redis, names, env: QUICK_REBALANCE_ENV });
  onTestFinished(() => worker.stop());
  await produce(names.topic, events(0, 20));
  await waitFor(async () => (await counterTotal(worker.metrics.applied)) === 20, { timeoutMs: 60_000 });
  const { before, after } = await recreate(names);
  await expectIncomplete(names, `its id is ${after}, the view's ${before}`);
});

it("a store from before topic ids were kept records the topic's id and stays live", async () => {
  const names = await isolatedTopics("recreated", { partitions: 1 });
  const first = await startInProcessWorker({ kafka, redis, names, env: QUICK_REBALANCE_ENV });
  await produce(names.topic, events(0, 10));
  await waitFor(async () => (await counterTotal(first.metrics.applied)) === 10, { timeoutMs: 60_000 });
  await first.stop();
  const keyspace = keyspaceOf(names);
  const log = createLogPosition({ redis, keyspace });
  // As such a store holds it: checkpoints, no topic id.
  expect(await redis.hdel(keyspace.log(1), `topicid:${names.topic}`)).toBe(1);
  expect((await log.read(1)).topicIds).toEqual(new Map());

  const second = await startInProcessWorker({ kafka, redis, names, env: QUICK_REBALANCE_ENV });
  onTestFinished(() => second.stop());
  const id = await topicId(names.topic);
  await waitFor(async () => (await log.read(1)).topicIds?.get(names.topic) === id, {
    timeoutMs: 60_000,
    message: "the topic's id recorded",
  });
  await produce(names.topic, events(10, 5));
  await waitFor(async () => (await counterTotal(second.metrics.applied)) === 5, { timeoutMs: 60_000 });
  expect(await log.status(1)).toMatchObject({ state: "live", reason: null });
  expect((await second.worker().ready()).ok).toBe(true);
});
