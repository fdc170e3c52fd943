import { waitFor } from "@vu/infra";
import { createKeyspace, createLogPosition, partitionKey, type RedisClient } from "@vu/store";
import type { Kafka } from "kafkajs";

export interface GroupProgress {
  /** Messages committed by the group, over all partitions. */
  committed: number;
  /** Messages produced but not committed yet (can read slightly negative: two separate reads). */
  lag: number;
}

export interface OffsetProbe {
  progress(): Promise<GroupProgress>;
  /** Waits until the group has committed more than `than` messages; resolves with the count. */
  progressPast(than: number, timeoutMs?: number): Promise<number>;
  close(): Promise<void>;
}

/** Reads a group's committed offsets and the topic's high watermarks over one admin connection. */
export async function createOffsetProbe(kafka: Kafka, topic: string, groupId: string): Promise<OffsetProbe> {
  const admin = kafka.admin();
  await admin.connect();
  const progress = async (): Promise<GroupProgress> => {
    const [ends, committed] = await Promise.all([
      admin.fetchTopicOffsets(topic),
      admin.fetchOffsets({ groupId, topics: [topic] }),
    ]);
    const done = new Map(committed[0]?.partitions.map((p) => [p.partition, Number(p.offset)]) ?? []);
    // An offset of -1 means nothing committed yet: the group starts at the beginning (fromBeginning).
    const at = (p: { partition: number; low: string }) =>
      Math.max(Number(p.low), done.get(p.partition) ?? -1);
    return {
      committed: ends.reduce((n, p) => n + at(p) - Number(p.low), 0),
      lag: ends.reduce((n, p) => n + Number(p.high) - at(p), 0),
    };
  };
  return {
    progress,
    progressPast: (than, timeoutMs = 60_000) =>
      waitFor(async () => ((await progress()).committed > than ? (await progress()).committed : 0), {
        timeoutMs,
        intervalMs: 20,
        message: `group ${groupId} to commit past ${than} messages`,
      }),
    close: () => admin.disconnect(),
  };
}

/**
 * Waits until the group's committed offsets equal the high watermarks of every partition: the
 * worker resolves an offset only after the batch is applied to Redis, so then all is counted.
 */
export async function waitUntilCaughtUp(
  kafka: Kafka,
  topic: string,
  groupId: string,
  timeoutMs: number,
): Promise<void> {
  let last = Number.NaN;
  const probe = await createOffsetProbe(kafka, topic, groupId);
  try {
    await waitFor(
      async () => {
        last = (await probe.progress()).lag;
        return last === 0;
      },
      { timeoutMs, intervalMs: 250, message: `group ${groupId} to commit every message of ${topic}` },
    );
  } catch (error) {
    throw new Error(`the worker did not catch up: ${last} messages uncommitted`, { cause: error });
  } finally {
    await probe.close();
  }
}

/**
 * Waits until the view in Redis has caught up with the topic: live, and every partition's
 * checkpoint at its high watermark. Unlike `waitUntilCaughtUp`, this sees a replay after Redis lost
 * its state (the group's committed offsets are already at the end then).
 */
export async function waitUntilViewCaughtUp(
  kafka: Kafka,
  topic: string,
  redis: RedisClient,
  prefix: string,
  timeoutMs: number,
): Promise<void> {
  const log = createLogPosition({ redis, keyspace: createKeyspace({ prefix }) });
  const admin = kafka.admin();
  await admin.connect();
  let last = "not read yet";
  try {
    await waitFor(
      async () => {
        const [offsets, record] = await Promise.all([admin.fetchTopicOffsets(topic), log.read(1)]);
        const behind = offsets.filter(
          (p) =>
            Number(p.high) > Number(p.low) &&
            Number(record.checkpoints.get(partitionKey(topic, p.partition)) ?? -1) < Number(p.high),
        );
        last = `${record.state ?? "no epoch"}, ${behind.length} partitions behind`;
        return record.state === "live" && behind.length === 0;
      },
      { timeoutMs, intervalMs: 100, message: `the view of ${topic} to catch up` },
    );
  } catch (error) {
    throw new Error(`the view did not catch up: ${last}`, { cause: error });
  } finally {
    await admin.disconnect();
  }
}
