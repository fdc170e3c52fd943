import { randomUUID } from "node:crypto";
import { type RecordingCompletedInput, recordingCompletedSchema } from "@vu/events";
import { ensureTopics } from "@vu/infra";
import { createLogger } from "@vu/service-runtime";
import {
  addPacked,
  createKeyspace,
  createRollupReader,
  emptySums,
  type Keyspace,
  type RedisClient,
  type Sums,
  utcStamp,
  VIEWS,
  type View,
} from "@vu/store";
import { bucketsOf, DAY_MS, DEFAULT_RETENTION, isBlockKept, type Tier } from "@vu/time-buckets";
import { Kafka, logLevel } from "kafkajs";
import { createIngestWorker, type IngestWorker } from "../app";
import { createIngestMetrics, type IngestMetrics } from "../metrics";

export const brokers = () => (process.env.KAFKA_BROKERS ?? "127.0.0.1:9092").split(",");
export const redisUrl = () => process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

export function testKafka(): Kafka {
  return new Kafka({ clientId: `test-${randomUUID()}`, brokers: brokers(), logLevel: logLevel.NOTHING });
}

/** A unique topic pair, group and key prefix per test: nothing is shared with other tests. */
export async function isolatedIngest(partitions: number) {
  const id = randomUUID().slice(0, 8);
  const names = {
    topic: `test-recordings-${id}`,
    dlqTopic: `test-recordings-${id}.dlq`,
    groupId: `test-group-${id}`,
    prefix: `test-${id}`,
  };
  await ensureTopics(brokers(), { topic: names.topic, dlqTopic: names.dlqTopic, partitions });
  return { ...names, keyspace: createKeyspace({ prefix: names.prefix }) };
}

/** Worker settings for tests: short sessions so rebalances after a stop are quick. */
export function testWorkerConfig(names: { topic: string; dlqTopic: string; groupId: string }) {
  return {
    topic: names.topic,
    dlqTopic: names.dlqTopic,
    groupId: names.groupId,
    sessionTimeoutMs: 10_000,
    heartbeatIntervalMs: 1_000,
    partitionsConsumedConcurrently: 2,
    dedupeWindowMs: 7 * DAY_MS,
    futureToleranceMs: DAY_MS,
    retention: DEFAULT_RETENTION,
  };
}

export interface StartedWorker {
  worker: IngestWorker;
  metrics: IngestMetrics;
}

export async function startWorker(options: {
  kafka: Kafka;
  redis: RedisClient;
  keyspace: Keyspace;
  topic: string;
  dlqTopic: string;
  groupId: string;
}): Promise<StartedWorker> {
  const metrics = createIngestMetrics();
  const worker = createIngestWorker({
    kafka: options.kafka,
    redis: options.redis,
    keyspace: options.keyspace,
    logger: createLogger("test-worker", "silent"),
    metrics,
    config: { ...testWorkerConfig(options), fromBeginning: true },
  });
  await worker.start();
  return { worker, metrics };
}

export function event(
  org: string,
  id: string,
  recordedAt: string,
  patch: Partial<RecordingCompletedInput> = {},
): RecordingCompletedInput {
  return {
    schema_version: 1,
    recording_id: id,
    organization_id: org,
    member_email: "ada@example.com",
    voice_model: "whisper",
    language_model: "gpt",
    app_name: "Zoom",
    recorded_at: recordedAt,
    duration_ms: 60_000,
    word_count: 150,
    voice_processing_ms: 800,
    llm_processing_ms: 1_500,
    ...patch,
  };
}

/**
 * What every block of every tier must hold after the events are counted once: the first copy of
 * each (organization, recording_id) counts; blocks past retention are not stored.
 */
export function expectedBlocks(events: readonly RecordingCompletedInput[], org: string, nowMs = Date.now()) {
  const seen = new Set<string>();
  const blocks = new Map<string, { tier: Tier; startMs: number; sums: Sums }>();
  for (const input of events) {
    const e = recordingCompletedSchema.parse(input);
    if (e.organization_id !== org || seen.has(e.recording_id)) continue;
    seen.add(e.recording_id);
    for (const { tier, startMs } of bucketsOf(Date.parse(e.recorded_at))) {
      if (!isBlockKept(DEFAULT_RETENTION, tier, startMs, nowMs)) continue;
      const key = `${tier}:${utcStamp(startMs)}`;
      const block = blocks.get(key) ?? { tier, startMs, sums: emptySums() };
      blocks.set(key, block);
      block.sums.count += 1;
      block.sums.words += e.word_count;
      block.sums.durationMs += e.duration_ms;
      if (e.voice_processing_ms !== null) {
        block.sums.voiceMsSum += e.voice_processing_ms;
        block.sums.voiceMsCount += 1;
      }
      if (e.llm_processing_ms !== null) {
        block.sums.llmMsSum += e.llm_processing_ms;
        block.sums.llmMsCount += 1;
      }
    }
  }
  return { count: seen.size, blocks: [...blocks.values()] };
}

/** The stored totals of the given blocks (all combinations summed), in one round trip. */
export async function storedBlocks(
  redis: RedisClient,
  keyspace: Keyspace,
  org: string,
  blocks: ReadonlyArray<{ tier: Tier; startMs: number }>,
  generation = 1,
  view: View = "total",
): Promise<Sums[]> {
  const snapshot = await createRollupReader({ redis, keyspace }).readBlocks(generation, org, blocks, view);
  return snapshot.cells.map((cells) => {
    const sums = emptySums();
    for (let i = 1; i < cells.length; i += 2) addPacked(sums, cells[i] as Buffer);
    return sums;
  });
}

/** Whether the stored blocks equal the expected ones exactly, and the first difference if not. */
export async function compareWithStore(
  redis: RedisClient,
  keyspace: Keyspace,
  org: string,
  expected: ReturnType<typeof expectedBlocks>,
): Promise<string | null> {
  // Every view of a block must hold the same totals: combinations, total and each projection.
  for (const view of VIEWS) {
    const stored = await storedBlocks(redis, keyspace, org, expected.blocks, 1, view);
    for (const [i, block] of expected.blocks.entries()) {
      const got = JSON.stringify(stored[i]);
      const want = JSON.stringify(block.sums);
      if (got !== want) {
        return `${org} ${block.tier} ${utcStamp(block.startMs)} ${view}: stored ${got}, expected ${want}`;
      }
    }
  }
  return null;
}

export const silentLogger = createLogger("test", "silent");

export interface CollectedDeadLetter {
  reason: string;
  sourceOffset: string;
  value: Buffer | null;
  truncated: string | undefined;
}

/** Collects the dead-letter topic as it fills; `stop` disconnects the reader. */
export async function collectDeadLetters(kafka: Kafka, dlqTopic: string) {
  const letters: CollectedDeadLetter[] = [];
  const consumer = kafka.consumer({ groupId: `test-dlq-reader-${randomUUID()}`, maxWaitTimeInMs: 100 });
  await consumer.connect();
  await consumer.subscribe({ topic: dlqTopic, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      const header = (name: string) => message.headers?.[name]?.toString();
      letters.push({
        reason: header("x-dlq-reason") ?? "",
        sourceOffset: header("x-dlq-source-offset") ?? "",
        value: message.value,
        truncated: header("x-dlq-truncated"),
      });
    },
  });
  return { letters, stop: () => consumer.disconnect() };
}

/** A counter's value summed over its labels. */
export async function counterTotal(counter: { get(): Promise<{ values: Array<{ value: number }> }> }) {
  return (await counter.get()).values.reduce((sum, v) => sum + v.value, 0);
}
