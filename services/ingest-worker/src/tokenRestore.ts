// Restores the API tokens into Redis from the compacted tokens topic (@vu/events `TOKENS_TOPIC`),
// the durable record the tokens CLI writes besides Redis. Redis is a view that can be lost; after a
// loss (or at any time: it is idempotent) this reads the topic from its beginning up to where it
// ended when the restore started and writes each token's latest record back.
import { randomUUID } from "node:crypto";
import { type DurableTokenRecord, decodeTokenRecord } from "@vu/events";
import type { Logger } from "@vu/service-runtime";
import type { TokenAdminStore } from "@vu/store";
import type { Kafka } from "kafkajs";

export interface RestoreTokensOptions {
  kafka: Kafka;
  topic: string;
  /** The store (`createTokenStore`) of the Redis prefix to restore into. */
  tokens: Pick<TokenAdminStore, "restore">;
  logger: Logger;
  /** How long reading the topic may take before the restore fails. Default 120 s. */
  timeoutMs?: number;
}

export interface RestoreTokensResult {
  /** Tokens written to Redis (active and revoked), one per token. */
  restored: number;
}

/**
 * Reads `topic` from the earliest offset to the high watermarks taken at the start (records written
 * later are in Redis already: the CLI writes both), keeps each token's latest record, and writes
 * them with `tokens.restore`, which never un-revokes a token and keeps its `last_used_at`. Records
 * that do not decode are skipped with a warning; a missing topic restores nothing (with a warning).
 */
export async function restoreTokens(options: RestoreTokensOptions): Promise<RestoreTokensResult> {
  const { kafka, topic, tokens, timeoutMs = 120_000 } = options;
  const logger = options.logger.child({ component: "token-restore", topic });
  const ends = await highWatermarks(kafka, topic);
  if (ends === null) {
    logger.warn("the tokens topic does not exist: no token restored");
    return { restored: 0 };
  }
  const latest = await readToEnds(kafka, topic, ends, logger, timeoutMs);
  let restored = 0;
  let revoked = 0;
  for (const [hash, record] of latest) {
    if (record === null) continue;
    await tokens.restore(hash, record);
    restored += 1;
    if (record.revokedAt !== null) revoked += 1;
  }
  logger.info({ restored, revoked }, "tokens restored from the tokens topic");
  return { restored };
}

/** Partition → the offset reading must reach (its high watermark); only partitions holding records. */
async function highWatermarks(kafka: Kafka, topic: string): Promise<Map<number, bigint> | null> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    if (!(await admin.listTopics()).includes(topic)) return null;
    const offsets = await admin.fetchTopicOffsets(topic);
    return new Map(
      offsets
        .filter((p) => BigInt(p.high) > BigInt(p.low))
        .map((p) => [p.partition, BigInt(p.high)] as const),
    );
  } finally {
    await admin.disconnect();
  }
}

/**
 * Each token's latest record up to `ends` (null: its latest message is a tombstone). A consumer of
 * a throwaway group reads from the beginning and commits nothing; progress is taken from every
 * fetched batch, including batches of control records only, so a partition whose last offsets hold
 * no message still counts as read to its end.
 */
async function readToEnds(
  kafka: Kafka,
  topic: string,
  ends: Map<number, bigint>,
  logger: Logger,
  timeoutMs: number,
): Promise<Map<string, DurableTokenRecord | null>> {
  const latest = new Map<string, DurableTokenRecord | null>();
  if (ends.size === 0) return latest;
  const pending = new Set(ends.keys());
  const groupId = `${topic}-restore-${randomUUID()}`;
  const consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 500 });
  let timer: NodeJS.Timeout | undefined;
  let skipped = 0;
  try {
    const done = new Promise<void>((resolve, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new Error(
              `restoring tokens: ${topic} not read to its end within ${timeoutMs} ms ` +
                `(partitions ${[...pending].join(", ")} unfinished)`,
            ),
          ),
        timeoutMs,
      );
      consumer.on(consumer.events.CRASH, ({ payload }) => reject(payload.error));
      // Emitted after eachBatch returned, and also for fetched batches it never sees (control
      // records only), so it is where a partition is found read to its end.
      consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
        const end = ends.get(payload.partition);
        if (end !== undefined && BigInt(payload.lastOffset) + 1n >= end) pending.delete(payload.partition);
        if (pending.size === 0) resolve();
      });
    });
    // Settled whether or not it is awaited below (connect may throw first).
    done.catch(() => undefined);
    await consumer.connect();
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      autoCommit: false,
      eachBatch: async ({ batch }) => {
        const end = ends.get(batch.partition);
        for (const message of batch.messages) {
          // Records appended after the start are not this restore's (the CLI wrote them to Redis).
          if (end === undefined || BigInt(message.offset) >= end) continue;
          const decoded = decodeTokenRecord(message.key, message.value);
          if (decoded.ok) {
            latest.set(decoded.hash, decoded.record);
          } else {
            skipped += 1;
            logger.warn(
              { partition: batch.partition, offset: message.offset, reason: decoded.reason },
              "skipping a token record that does not decode",
            );
          }
        }
      },
    });
    await done;
  } finally {
    clearTimeout(timer);
    await consumer.disconnect();
    await deleteGroup(kafka, groupId);
  }
  if (skipped > 0) logger.warn({ skipped }, "token records skipped");
  return latest;
}

/** The throwaway group committed nothing; removing it keeps the broker's group list clean. */
async function deleteGroup(kafka: Kafka, groupId: string): Promise<void> {
  const admin = kafka.admin();
  try {
    await admin.connect();
    await admin.deleteGroups([groupId]);
  } catch {
    // Best effort: an empty group without offsets expires on its own.
  } finally {
    await admin.disconnect().catch(() => undefined);
  }
}
