import { RECORDINGS_DLQ_TOPIC, RECORDINGS_TOPIC } from "@vu/events";
import { quietKafka } from "./kafkaProbe";

// The names are the event contract's, re-exported for callers that only depend on @vu/infra.
export { RECORDINGS_DLQ_TOPIC, RECORDINGS_TOPIC };

export interface EnsureTopicsOptions {
  topic?: string;
  partitions?: number;
  dlqTopic?: string;
  /** Default: the same count as the main topic, matching the broker's num.partitions. */
  dlqPartitions?: number;
  /** 1 on the single-node stacks this module serves. */
  replicationFactor?: number;
}

export interface EnsureTopicsResult {
  /** Topics this call created; empty when all of them existed already. */
  created: string[];
}

/**
 * Creates the topic and its dead-letter topic unless they exist. Idempotent: existing topics are left
 * as they are (never re-partitioned, since that would move keys between partitions), so every start of
 * the stack and every test run can call it.
 */
export async function ensureTopics(
  brokers: string[],
  options: EnsureTopicsOptions = {},
): Promise<EnsureTopicsResult> {
  const {
    topic = RECORDINGS_TOPIC,
    partitions = 6,
    dlqTopic = RECORDINGS_DLQ_TOPIC,
    dlqPartitions = partitions,
    replicationFactor = 1,
  } = options;
  const wanted = [
    { topic, numPartitions: partitions, replicationFactor },
    { topic: dlqTopic, numPartitions: dlqPartitions, replicationFactor },
  ];
  const admin = quietKafka(brokers, { timeoutMs: 10_000, retries: 5 }).admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    const missing = wanted.filter((spec) => !existing.has(spec.topic));
    if (missing.length > 0) {
      // waitForLeaders: producers may use the topics as soon as this resolves.
      await admin.createTopics({ topics: missing, waitForLeaders: true, timeout: 30_000 });
    }
    return { created: missing.map((spec) => spec.topic) };
  } finally {
    await admin.disconnect();
  }
}
