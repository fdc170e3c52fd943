import { DLQ_HEADERS } from "@vu/events";
import { ensureTopics, waitFor } from "@vu/infra";
import { Kafka, logLevel } from "kafkajs";
import { type IsolatedNames, isolatedNames, uniqueId } from "./names";
import { brokers } from "./stackEnv";

/** A Kafka client for tests: silent, with short retries (a test that waits for a broker polls itself). */
export function testKafka(brokerList: string[] = brokers()): Kafka {
  return new Kafka({
    clientId: `test-${uniqueId()}`,
    brokers: brokerList,
    logLevel: logLevel.NOTHING,
    retry: { initialRetryTime: 100, retries: 8 },
  });
}

/** `isolatedNames`, with its topic pair created (`partitions` each, default 6). */
export async function isolatedTopics(
  suite: string,
  options: { partitions?: number; brokers?: string[] } = {},
): Promise<IsolatedNames> {
  const names = isolatedNames(suite);
  await ensureTopics(options.brokers ?? brokers(), {
    topic: names.topic,
    dlqTopic: names.dlqTopic,
    partitions: options.partitions ?? 6,
  });
  return names;
}

export interface CollectedDeadLetter {
  reason: string;
  sourcePartition: string;
  sourceOffset: string;
  /** Set for an undecodable record batch: its first offset (`sourceOffset` is its last). */
  sourceFirstOffset: string | undefined;
  value: Buffer | null;
  truncated: string | undefined;
}

/** Collects the dead-letter topic as it fills; `stop` disconnects the reader. */
export async function collectDeadLetters(kafka: Kafka, dlqTopic: string) {
  const letters: CollectedDeadLetter[] = [];
  const consumer = kafka.consumer({ groupId: `test-dlq-reader-${uniqueId()}`, maxWaitTimeInMs: 100 });
  await consumer.connect();
  await consumer.subscribe({ topic: dlqTopic, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      const header = (name: string) => message.headers?.[name]?.toString();
      letters.push({
        reason: header(DLQ_HEADERS.reason) ?? "",
        sourcePartition: header(DLQ_HEADERS.sourcePartition) ?? "",
        sourceOffset: header(DLQ_HEADERS.sourceOffset) ?? "",
        sourceFirstOffset: header(DLQ_HEADERS.sourceFirstOffset),
        value: message.value,
        truncated: header(DLQ_HEADERS.truncated),
      });
    },
  });
  return { letters, stop: () => consumer.disconnect() };
}

/**
 * Every dead letter on the topic now: as many as its partitions hold up to their high watermarks,
 * read with `collectDeadLetters` (the one reader).
 */
export async function readAllDeadLetters(kafka: Kafka, dlqTopic: string): Promise<CollectedDeadLetter[]> {
  const admin = kafka.admin();
  await admin.connect();
  const offsets = await admin.fetchTopicOffsets(dlqTopic).finally(() => admin.disconnect());
  const total = offsets.reduce((n, p) => n + Number(p.high) - Number(p.low), 0);
  const { letters, stop } = await collectDeadLetters(kafka, dlqTopic);
  try {
    await waitFor(() => letters.length >= total, {
      timeoutMs: 60_000,
      message: `all ${total} dead letters of ${dlqTopic} read`,
    });
  } finally {
    await stop();
  }
  return letters;
}
