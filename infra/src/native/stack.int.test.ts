import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { Kafka, logLevel } from "kafkajs";
import { describe, expect, inject, it, onTestFinished } from "vitest";
import { waitFor } from "../waitFor";
import { RECORDINGS_DLQ_TOPIC, RECORDINGS_TOPIC } from "./topics";

const kafkaBrokers = inject("kafkaBrokers");
const redisUrl = inject("redisUrl");

function kafka(): Kafka {
  return new Kafka({
    clientId: `infra-test-${randomUUID()}`,
    brokers: kafkaBrokers,
    logLevel: logLevel.ERROR,
  });
}

describe("the integration stack from the global setup", () => {
  it("is in the environment as well as injected, for processes the tests spawn", () => {
    expect(process.env.KAFKA_BROKERS).toBe(kafkaBrokers.join(","));
    expect(process.env.REDIS_URL).toBe(redisUrl);
  });

  it("has the recordings topics with six partitions", async () => {
    const admin = kafka().admin();
    await admin.connect();
    onTestFinished(() => admin.disconnect());
    const { topics } = await admin.fetchTopicMetadata({ topics: [RECORDINGS_TOPIC, RECORDINGS_DLQ_TOPIC] });
    expect(topics.map((t) => [t.name, t.partitions.length]).sort()).toEqual([
      [RECORDINGS_TOPIC, 6],
      [RECORDINGS_DLQ_TOPIC, 6],
    ]);
  });

  it("round-trips a message through Kafka on a topic of its own", async () => {
    const client = kafka();
    const topic = `infra-test-${randomUUID()}`;
    const admin = client.admin();
    await admin.connect();
    onTestFinished(() => admin.disconnect());
    await admin.createTopics({
      topics: [{ topic, numPartitions: 1, replicationFactor: 1 }],
      waitForLeaders: true,
    });
    onTestFinished(() => admin.deleteTopics({ topics: [topic] }));

    const producer = client.producer();
    await producer.connect();
    onTestFinished(() => producer.disconnect());
    await producer.send({ topic, messages: [{ key: "k", value: "hello" }] });

    // A short fetch wait keeps disconnect() from waiting out a 5 s long poll.
    const consumer = client.consumer({ groupId: `infra-test-${randomUUID()}`, maxWaitTimeInMs: 100 });
    await consumer.connect();
    onTestFinished(() => consumer.disconnect());
    await consumer.subscribe({ topic, fromBeginning: true });
    const received: string[] = [];
    await consumer.run({
      eachMessage: async ({ message }) => {
        received.push(message.value?.toString() ?? "");
      },
    });
    await waitFor(() => received.length > 0, { timeoutMs: 30_000, message: "the message to come back" });
    expect(received).toEqual(["hello"]);
  });

  it("answers PING on Redis", async () => {
    const redis = new Redis(redisUrl, { lazyConnect: true });
    await redis.connect();
    onTestFinished(async () => {
      await redis.quit();
    });
    expect(await redis.ping()).toBe("PONG");
  });
});
