import { sendInBatches } from "@vu/demo-data";
import { createRecordingProducer } from "@vu/events";
import { ensureTopics } from "@vu/infra";
import { Kafka, logLevel } from "kafkajs";
import type { EventSource } from "./benchDataset";
import { fmt, log } from "./log";

export const PARTITIONS = 6;

export function benchKafka(brokers: string[], clientId: string): Kafka {
  return new Kafka({ clientId, brokers, logLevel: logLevel.WARN });
}

export interface BenchTopics {
  topic: string;
  dlqTopic: string;
}

export async function createTopics(brokers: string[], topic: string): Promise<BenchTopics> {
  const dlqTopic = `${topic}.dlq`;
  await ensureTopics(brokers, { topic, dlqTopic, partitions: PARTITIONS });
  return { topic, dlqTopic };
}

/** Best effort: a topic left behind is only disk space, never a reason to fail the run. */
export async function deleteTopics(kafka: Kafka, topics: string[]): Promise<void> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    await admin.deleteTopics({ topics, timeout: 30_000 });
  } catch (error) {
    log(`could not delete topics ${topics.join(", ")}: ${(error as Error).message}`);
  } finally {
    await admin.disconnect();
  }
}

export interface ProduceResult {
  events: number;
  seconds: number;
  eventsPerSecond: number;
}

/**
 * Through the contract's producer (validated, keyed by organization, idempotent, acks=all). 2000
 * events of ~400 bytes stay under the broker's default 1 MB record batch: one organization's
 * events all go to one partition, so a request carries a single batch (the multi-tenant set's
 * requests carry up to one per partition, each smaller).
 */
export async function produceDataset(
  kafka: Kafka,
  topic: string,
  dataset: EventSource,
): Promise<ProduceResult> {
  const producer = createRecordingProducer({ kafka, topic });
  await producer.connect();
  const started = performance.now();
  let lastLog = started;
  try {
    const events = await sendInBatches(producer, dataset.events, {
      batchSize: 2000,
      onProgress: (sent) => {
        if (performance.now() - lastLog < 10_000) return;
        lastLog = performance.now();
        const rate = sent / ((lastLog - started) / 1000);
        log(`  produced ${fmt(sent)} / ${fmt(dataset.total)} (${fmt(rate)} events/s)`);
      },
    });
    const seconds = (performance.now() - started) / 1000;
    return { events, seconds, eventsPerSecond: events / seconds };
  } finally {
    await producer.disconnect();
  }
}
