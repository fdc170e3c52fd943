import { RECORDINGS_DLQ_TOPIC, RECORDINGS_TOPIC, readMaxMessageBytes, TOKENS_TOPIC } from "@vu/events";
import kafkajs, { type Admin } from "kafkajs";
import { quietKafka } from "./kafkaProbe";

// kafkajs is CommonJS, and Node's ESM loader cannot see this export by name.
const { ConfigResourceTypes } = kafkajs;
/**
 * Room for what a dead letter adds to the message it carries: the worker's `x-dlq-*` headers
 * (a reason of at most 1,000 characters, source topic, partition, offset). So the largest message
 * the main topic accepts fits the dead-letter topic whole.
 */
export const DLQ_HEADER_ALLOWANCE_BYTES = 64 * 1024;

// The names are the event contract's, re-exported for callers that only depend on @vu/infra.
export { RECORDINGS_DLQ_TOPIC, RECORDINGS_TOPIC, TOKENS_TOPIC };

export interface EnsureTopicsOptions {
  topic?: string;
  partitions?: number;
  dlqTopic?: string;
  /** Default: the same count as the main topic, matching the broker's num.partitions. */
  dlqPartitions?: number;
  /** The compacted topic of API token records (one partition). Default `TOKENS_TOPIC`. */
  tokensTopic?: string;
  /** 1 on the single-node stacks this module serves. */
  replicationFactor?: number;
}

export interface EnsureTopicsResult {
  /** Topics this call created; empty when all of them existed already. */
  created: string[];
}

/**
 * Creates the topic, its dead-letter topic and the tokens topic unless they exist; the dead-letter
 * topic accepts the main topic's largest message plus the worker's headers. Idempotent: existing
 * topics are never re-partitioned (that would move keys between partitions) nor have their
 * retention changed; only a dead-letter topic's `max.message.bytes` is raised when below that rule,
 * so every start of the stack and every test run can call it.
 *
 * The main topic is created with `retention.ms=-1`: Kafka is the record the store is rebuilt from,
 * and the broker's default (7 days) would delete the events a replay needs. Its records carry the
 * broker's append time (`message.timestamp.type=LogAppendTime`): the worker's "too far in the
 * future" rule measures from it, so a replay refuses exactly what the live run refused, and no
 * producer's clock moves it. The tokens topic is
 * compacted (`cleanup.policy=compact`, no time limit): each token's latest record is kept for as
 * long as the topic exists, which is what a restore of a lost Redis reads. It has one partition:
 * it is small, and one partition keeps every change in the order it was made.
 */
export async function ensureTopics(
  brokers: string[],
  options: EnsureTopicsOptions = {},
): Promise<EnsureTopicsResult> {
  const created: string[] = [];
  // A broker that has just started, or just created a topic, can answer a describe or a metadata
  // request for it with UNKNOWN_TOPIC_OR_PARTITION until its metadata caught up: the whole call is
  // idempotent, so it is made again (what it created stays counted).
  for (let attempt = 1; ; attempt++) {
    try {
      await ensureTopicsOnce(brokers, options, created);
      return { created };
    } catch (error) {
      if (attempt >= ENSURE_ATTEMPTS || !isRetriableKafkaError(error)) throw error;
      await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
    }
  }
}

const ENSURE_ATTEMPTS = 5;

/**
 * kafkajs marks the errors worth another try (`retriable`), the topic-partition one among them;
 * once its own retries ran out it throws one that is not, with the last such error as its cause.
 */
function isRetriableKafkaError(error: unknown): boolean {
  for (let e: unknown = error, depth = 0; typeof e === "object" && e !== null && depth < 4; depth++) {
    const { retriable, type, cause } = e as { retriable?: unknown; type?: unknown; cause?: unknown };
    if (retriable === true || type === "UNKNOWN_TOPIC_OR_PARTITION") return true;
    e = cause;
  }
  return false;
}

async function ensureTopicsOnce(
  brokers: string[],
  options: EnsureTopicsOptions,
  created: string[],
): Promise<void> {
  const {
    topic = RECORDINGS_TOPIC,
    partitions = 6,
    dlqTopic = RECORDINGS_DLQ_TOPIC,
    dlqPartitions = partitions,
    tokensTopic = TOKENS_TOPIC,
    replicationFactor = 1,
  } = options;
  const admin = quietKafka(brokers, { timeoutMs: 10_000, retries: 5 }).admin();
  await admin.connect();
  try {
    const existing = new Set(await admin.listTopics());
    if (!existing.has(topic)) {
      await createTopic(admin, {
        topic,
        numPartitions: partitions,
        replicationFactor,
        // At creation only: an existing topic's retention is the operator's to set.
        configEntries: [
          { name: "retention.ms", value: "-1" },
          { name: "message.timestamp.type", value: "LogAppendTime" },
        ],
      });
      created.push(topic);
    }
    if (!existing.has(tokensTopic)) {
      await createTopic(admin, {
        topic: tokensTopic,
        numPartitions: 1,
        replicationFactor,
        configEntries: [{ name: "cleanup.policy", value: "compact" }],
      });
      created.push(tokensTopic);
    }
    const dlqMax = String((await readMaxMessageBytes(admin, topic)) + DLQ_HEADER_ALLOWANCE_BYTES);
    if (!existing.has(dlqTopic)) {
      await createTopic(admin, {
        topic: dlqTopic,
        numPartitions: dlqPartitions,
        replicationFactor,
        configEntries: [{ name: "max.message.bytes", value: dlqMax }],
      });
      created.push(dlqTopic);
    } else if ((await readMaxMessageBytes(admin, dlqTopic)) < Number(dlqMax)) {
      // A dead-letter topic made before this rule: raise its limit (its only override).
      await admin.alterConfigs({
        validateOnly: false,
        resources: [
          {
            type: ConfigResourceTypes.TOPIC,
            name: dlqTopic,
            configEntries: [{ name: "max.message.bytes", value: dlqMax }],
          },
        ],
      });
    }
  } finally {
    await admin.disconnect();
  }
}

type TopicSpec = Parameters<Admin["createTopics"]>[0]["topics"][number];

async function createTopic(admin: Admin, spec: TopicSpec): Promise<void> {
  // waitForLeaders: producers may use the topic as soon as this resolves.
  await admin.createTopics({ topics: [spec], waitForLeaders: true, timeout: 30_000 });
}
