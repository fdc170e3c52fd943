import { waitFor } from "@vu/infra";
import { createRedisClient, type RedisClient } from "@vu/store";
import { counterTotal, type IsolatedNames, recordingEvent, redisUrl } from "@vu/testkit";
import { collectDeadLetters, isolatedTopics, testKafka } from "@vu/testkit/kafka";
import { compareWithStore, expectedBlocks, keyspaceOf } from "@vu/testkit/store";
import { waitForCounterTotal } from "@vu/testkit/waitForValue";
import { QUICK_REBALANCE_ENV, startInProcessWorker } from "@vu/testkit/worker";
import { floorUtc } from "@vu/time-buckets";
import kafkajs, { type Message } from "kafkajs";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";

const { ConfigResourceTypes } = kafkajs;
const kafka = testKafka();
let redis: RedisClient;
beforeAll(() => {
  redis = createRedisClient(redisUrl());
});
afterAll(() => redis.quit());

const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();

async function sendRaw(topic: string, messages: Message[]) {
  const producer = kafka.producer();
  await producer.connect();
  try {
    await producer.send({ topic, messages });
  } finally {
    await producer.disconnect();
  }
}

async function started(partitions = 1) {
  const ctx = await isolatedTopics("worker", { partitions });
  const worker = await startInProcessWorker({ kafka, redis, names: ctx, env: QUICK_REBALANCE_ENV });
  onTestFinished(() => worker.stop());
  const dlq = await collectDeadLetters(kafka, ctx.dlqTopic);
  onTestFinished(() => dlq.stop());
  return { ctx, metrics: worker.metrics, dlq };
}

async function expectStored(ctx: IsolatedNames, counted: ReturnType<typeof recordingEvent>[]) {
  const expected = expectedBlocks(counted, "acme");
  let diff: string | null = "not compared yet";
  const same = async () => {
    diff = await compareWithStore(redis, keyspaceOf(ctx), "acme", expected);
    return diff === null;
  };
  await waitFor(same, { timeoutMs: 30_000, message: "the store holds exactly the valid events" }).catch(
    (error: unknown) => {
      throw new Error(`${(error as Error).message}: ${diff}`);
    },
  );
}

describe("hostile input never costs another message its count", () => {
  it("an event with a lone surrogate, sent with 50 valid ones, is dead-lettered alone", async () => {
    const { ctx, metrics, dlq } = await started();
    const valid = Array.from({ length: 50 }, (_, i) =>
      recordingEvent(`ok-${i}`, hoursAgo(i % 5), { app_name: i === 7 ? "Zoom \u0000 nul" : "Zoom" }),
    );
    const lone = JSON.stringify(recordingEvent("lone", hoursAgo(1), { app_name: "PLACEHOLDER" })).replace(
      '"PLACEHOLDER"',
      '"Zoom\\ud83d"',
    );
    const notUtf8 = Buffer.concat([
      Buffer.from(JSON.stringify(recordingEvent("bytes", hoursAgo(1))).slice(0, -1)),
      Buffer.from([0xff, 0xfe, 0x7d]),
    ]);
    await sendRaw(ctx.topic, [
      ...valid.slice(0, 25).map((e) => ({ key: "acme", value: JSON.stringify(e) })),
      { key: "acme", value: lone },
      { key: "acme", value: notUtf8 },
      ...valid.slice(25).map((e) => ({ key: "acme", value: JSON.stringify(e) })),
    ]);

    await expectStored(ctx, valid);
    await waitFor(() => dlq.letters.length === 2, { timeoutMs: 30_000, message: "two dead letters" });
    expect(dlq.letters.map((l) => [l.sourceOffset, l.reason])).toEqual([
      ["25", "invalid_unicode: app_name holds a lone surrogate (a string cut inside a character)"],
      ["26", "invalid_unicode: the message is not valid UTF-8"],
    ]);
    // The counters move once the store and the dead-letter topic have: waited for, not read at once.
    await waitForCounterTotal(metrics.applied, 50, { message: "applied counter" });
    await waitForCounterTotal(metrics.deadLettered, 2, { message: "dead-lettered counter" });
    expect(await counterTotal(metrics.duplicates)).toBe(0);
    expect((await metrics.deadLettered.get()).values).toEqual([
      expect.objectContaining({ labels: { reason: "invalid_unicode" }, value: 2 }),
    ]);
  });

  it("events the apply script refuses are isolated and dead-lettered; the rest of their chunk counts once", async () => {
    const ctx = await isolatedTopics("worker", { partitions: 1 });
    // Keys of the wrong type where one minute block of `acme` goes (its container, which holds its
    // UTC day's minutes, and its own keys): every batch touching that day's minutes fails in the
    // script, deterministically, as a corrupted key would. The valid events are a day or more later.
    const poisonedAt = Date.parse(hoursAgo(48));
    const minute = floorUtc("minute", poisonedAt);
    const poisonedKeys = keyspaceOf(ctx).blockKeys(1, "acme", "minute", minute);
    for (const key of poisonedKeys) await redis.set(key, "not a hash");
    const worker = await startInProcessWorker({ kafka, redis, names: ctx, env: QUICK_REBALANCE_ENV });
    const { metrics } = worker;
    onTestFinished(() => worker.stop());
    const dlq = await collectDeadLetters(kafka, ctx.dlqTopic);
    onTestFinished(() => dlq.stop());

    const valid = Array.from({ length: 200 }, (_, i) =>
      recordingEvent(`ok-${i}`, hoursAgo(i % 7 === 3 ? 4.5 : 1)),
    );
    const poisoned = [40, 41, 150].map((i) =>
      recordingEvent(`poisoned-${i}`, new Date(minute + i).toISOString()),
    );
    const messages = [...valid];
    messages.splice(40, 0, poisoned[0] as never, poisoned[1] as never);
    messages.splice(150, 0, poisoned[2] as never);
    await sendRaw(
      ctx.topic,
      messages.map((e) => ({ key: "acme", value: JSON.stringify(e) })),
    );

    await waitFor(() => dlq.letters.length === 3, { timeoutMs: 30_000, message: "three dead letters" });
    expect(dlq.letters.map((l) => l.sourceOffset)).toEqual(["40", "41", "150"]);
    for (const letter of dlq.letters) expect(letter.reason).toMatch(/^apply_failed: .*WRONGTYPE/);
    await redis.del(...poisonedKeys);
    await expectStored(ctx, valid);
    await waitForCounterTotal(metrics.applied, 200, { message: "applied counter" });
    await waitForCounterTotal(metrics.deadLettered, 3, { message: "dead-lettered counter" });
    expect(await counterTotal(metrics.duplicates)).toBe(0);
  });

  it("large invalid messages with one key reach the dead-letter topic whole, without jamming the partition", async () => {
    const { ctx, metrics, dlq } = await started();
    const big = (fill: string, bytes: number) => `{"padding":"${fill.repeat(bytes)}`;
    await sendRaw(ctx.topic, [{ key: "acme", value: big("a", 600_000) }]);
    await sendRaw(ctx.topic, [{ key: "acme", value: big("b", 600_000) }]);
    await sendRaw(ctx.topic, [{ key: "acme", value: big("c", 1_000_000) }]);
    const after = recordingEvent("after", hoursAgo(1));
    await sendRaw(ctx.topic, [{ key: "acme", value: JSON.stringify(after) }]);

    await expectStored(ctx, [after]);
    await waitFor(() => dlq.letters.length === 3, { timeoutMs: 30_000, message: "three dead letters" });
    expect(dlq.letters.map((l) => [l.value?.length, l.truncated])).toEqual([
      [600_012, undefined],
      [600_012, undefined],
      [1_000_012, undefined],
    ]);
    expect(await counterTotal(metrics.deadLetterFailures)).toBe(0);
  });

  it("a message too large for the dead-letter topic is cut to fit and marked", async () => {
    const ctx = await isolatedTopics("worker", { partitions: 1 });
    const admin = kafka.admin();
    await admin.connect();
    await admin.alterConfigs({
      validateOnly: false,
      resources: [
        {
          type: ConfigResourceTypes.TOPIC,
          name: ctx.dlqTopic,
          configEntries: [{ name: "max.message.bytes", value: "100000" }],
        },
      ],
    });
    await admin.disconnect();
    const worker = await startInProcessWorker({ kafka, redis, names: ctx, env: QUICK_REBALANCE_ENV });
    onTestFinished(() => worker.stop());
    const dlq = await collectDeadLetters(kafka, ctx.dlqTopic);
    onTestFinished(() => dlq.stop());

    await sendRaw(ctx.topic, [
      { key: "acme", value: `{"padding":"${"x".repeat(600_000)}` },
      { key: "acme", value: "{short" },
    ]);
    await waitFor(() => dlq.letters.length === 2, { timeoutMs: 30_000, message: "two dead letters" });
    const [cut, whole] = dlq.letters;
    expect(cut?.truncated).toBe("600012");
    expect(cut?.value?.length).toBeGreaterThan(90_000);
    expect(cut?.value?.length).toBeLessThan(100_000);
    expect(cut?.value?.subarray(0, 12).toString()).toBe('{"padding":"');
    expect(whole).toMatchObject({ truncated: undefined, value: Buffer.from("{short") });
  });
});
