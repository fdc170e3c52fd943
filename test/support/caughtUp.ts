import { waitFor } from "@vu/infra";
import type { Kafka } from "kafkajs";

/** Messages of `topic` the group has not committed yet, over all partitions. */
export async function groupLag(kafka: Kafka, topic: string, groupId: string): Promise<number> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const [ends, committed] = await Promise.all([
      admin.fetchTopicOffsets(topic),
      admin.fetchOffsets({ groupId, topics: [topic] }),
    ]);
    const done = new Map(committed[0]?.partitions.map((p) => [p.partition, Number(p.offset)]) ?? []);
    // An offset of -1 means nothing committed yet: the group starts at the beginning (fromBeginning).
    return ends.reduce(
      (lag, p) => lag + Number(p.high) - Math.max(Number(p.low), done.get(p.partition) ?? -1),
      0,
    );
  } finally {
    await admin.disconnect();
  }
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
  await waitFor(
    async () => {
      last = await groupLag(kafka, topic, groupId);
      return last === 0;
    },
    { timeoutMs, intervalMs: 500, message: `group ${groupId} to commit every message of ${topic}` },
  ).catch((error: unknown) => {
    throw new Error(`worker did not catch up: ${last} messages uncommitted`, { cause: error });
  });
}
