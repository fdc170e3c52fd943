// Reads the tokens topic (`TOKENS_TOPIC`) and keeps only what the tokens CLI signed: the ingest
// worker's restore and its revocation watch, and the CLI's revoke of a token Redis does not have.
// The CLI's resign reads every message as it is (`readTokenTopicMessages`).
import { randomUUID } from "node:crypto";
import type { Kafka } from "kafkajs";
import type { TokenRecordSigner, TokenSignatureRefusal } from "./tokenRecordSignature";
import { type DurableTokenRecord, decodeTokenRecord } from "./tokenRecords";

/**
 * Why a message of the tokens topic is not taken: it does not decode, it is a tombstone (which
 * carries no signature: the tokens CLI never writes one), or its signature does not verify.
 */
export type TokenRecordRefusal = "malformed" | "tombstone" | TokenSignatureRefusal;

export type VerifiedTokenRecordResult =
  | { ok: true; hash: string; record: DurableTokenRecord }
  | { ok: false; refusal: TokenRecordRefusal; reason: string };

/** Decodes one message and checks its signature. Never throws; the reason never quotes the value. */
export function verifyTokenRecordMessage(
  signer: TokenRecordSigner,
  key: Buffer | string | null,
  value: Buffer | string | null,
): VerifiedTokenRecordResult {
  const decoded = decodeTokenRecord(key, value);
  if (!decoded.ok) return { ok: false, refusal: "malformed", reason: decoded.reason };
  if (decoded.record === null) {
    return { ok: false, refusal: "tombstone", reason: "tombstone: the tokens CLI never deletes a record" };
  }
  const check = signer.verify(decoded.hash, decoded.record, decoded.signature);
  if (!check.ok) return check;
  return { ok: true, hash: decoded.hash, record: decoded.record };
}

/** A message that was not taken, where it is (never its value). */
export interface RefusedTokenRecord {
  partition: number;
  offset: string;
  refusal: TokenRecordRefusal;
  reason: string;
}

/** One message of the tokens topic as the topic holds it, and where it is. */
export interface TokenTopicMessage {
  partition: number;
  offset: string;
  key: Buffer | null;
  value: Buffer | null;
}

export interface ReadTokenTopicMessagesOptions {
  kafka: Kafka;
  topic: string;
  /** Per partition, the offset to read from (the end a previous read returned). Default: the start. */
  from?: ReadonlyMap<number, bigint>;
  /** How long reading may take before it fails. Default 120 s. */
  timeoutMs?: number;
  /** Each message, whatever it holds, in the topic's order within a partition. */
  onMessage(message: TokenTopicMessage): void;
}

export interface ReadTokenTopicOptions extends Omit<ReadTokenTopicMessagesOptions, "onMessage"> {
  signer: TokenRecordSigner;
  /** Each verified record, in the topic's order within a partition. */
  onRecord(hash: string, record: DurableTokenRecord): void;
  onRefused(refused: RefusedTokenRecord): void;
}

/**
 * Reads `topic` up to the high watermarks taken at the start and returns them, per partition (the
 * `from` of a next read); null when the topic does not exist. Only what the tokens CLI signed
 * reaches `onRecord`; every other message is refused (`readTokenTopicMessages` for the messages as
 * they are).
 */
export async function readTokenTopic(options: ReadTokenTopicOptions): Promise<Map<number, bigint> | null> {
  const { signer, onRecord, onRefused, ...read } = options;
  return readTokenTopicMessages({
    ...read,
    onMessage(message) {
      const verified = verifyTokenRecordMessage(signer, message.key, message.value);
      if (verified.ok) onRecord(verified.hash, verified.record);
      else {
        onRefused({
          partition: message.partition,
          offset: message.offset,
          refusal: verified.refusal,
          reason: verified.reason,
        });
      }
    },
  });
}

/**
 * Reads every message of `topic` up to the high watermarks taken at the start and returns them, per
 * partition (the `from` of a next read); null when the topic does not exist. Nothing is verified:
 * for a caller that needs what the topic holds besides the signed records (the tokens CLI's
 * `resign`). A consumer of a throwaway group reads and commits nothing; progress is taken from
 * every fetched batch, including batches of control records only, so a partition whose last
 * offsets hold no message still counts as read to its end.
 */
export async function readTokenTopicMessages(
  options: ReadTokenTopicMessagesOptions,
): Promise<Map<number, bigint> | null> {
  const { kafka, topic, from, timeoutMs = 120_000 } = options;
  const offsets = await topicOffsets(kafka, topic);
  if (offsets === null) return null;
  const ends = new Map([...offsets].map(([partition, { high }]) => [partition, high]));
  // Where each partition is read from: where the last read ended, or its start when there was none
  // or the partition now ends before it (a topic deleted and made again).
  const starts = new Map<number, bigint>();
  // Partitions with records to read, and where they end.
  const pending = new Map<number, bigint>();
  for (const [partition, { low, high }] of offsets) {
    const last = from?.get(partition);
    const start = last === undefined || last > high ? 0n : last;
    starts.set(partition, start);
    if (high > (start > low ? start : low)) pending.set(partition, high);
  }
  if (pending.size === 0) return ends;
  const groupId = `${topic}-read-${randomUUID()}`;
  // The group's coordinator may still be loading on a broker that just started (NOT_COORDINATOR):
  // retried for about as long as the read may take, not kafkajs' default few seconds.
  const consumer = kafka.consumer({ groupId, maxWaitTimeInMs: 500, retry: { retries: 8 } });
  let timer: NodeJS.Timeout | undefined;
  try {
    const done = new Promise<void>((resolve, reject) => {
      timer = setTimeout(
        () =>
          reject(
            new Error(
              `reading the tokens topic ${topic}: not read to its end within ${timeoutMs} ms ` +
                `(partitions ${[...pending.keys()].join(", ")} unfinished)`,
            ),
          ),
        timeoutMs,
      );
      consumer.on(consumer.events.CRASH, ({ payload }) => reject(payload.error));
      // Emitted after eachBatch returned, and also for fetched batches it never sees (control
      // records only), so it is where a partition is found read to its end.
      consumer.on(consumer.events.END_BATCH_PROCESS, ({ payload }) => {
        const end = pending.get(payload.partition);
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
        const start = starts.get(batch.partition) ?? 0n;
        for (const message of batch.messages) {
          const offset = BigInt(message.offset);
          // Records appended after the start are the next read's.
          if (end === undefined || offset >= end || offset < start) continue;
          options.onMessage({
            partition: batch.partition,
            offset: message.offset,
            key: message.key ?? null,
            value: message.value,
          });
        }
      },
    });
    // Held by the consumer until it fetches the partition (kafkajs applies seeks before fetching); a
    // batch fetched before that is skipped by the start above.
    for (const [partition, offset] of starts) {
      if (offset > 0n) consumer.seek({ topic, partition, offset: offset.toString() });
    }
    await done;
  } finally {
    clearTimeout(timer);
    await consumer.disconnect();
    await deleteGroup(kafka, groupId);
  }
  return ends;
}

export interface LatestTokenRecords {
  /** Each token's latest verified record, by hash; a revocation, once read, is kept. */
  latest: Map<string, DurableTokenRecord>;
  /** Where reading stopped (the `from` of a next read); empty when the topic does not exist. */
  ends: Map<number, bigint>;
  exists: boolean;
}

/**
 * Each token's latest verified record. A record read after a revocation of the same token keeps
 * the revocation (with its first time): the CLI never writes one, and a signed active record
 * appended again must not bring a revoked token back.
 */
export async function latestTokenRecords(
  options: Omit<ReadTokenTopicOptions, "onRecord" | "from">,
): Promise<LatestTokenRecords> {
  const latest = new Map<string, DurableTokenRecord>();
  const ends = await readTokenTopic({
    ...options,
    onRecord(hash, record) {
      const revokedAt = latest.get(hash)?.revokedAt ?? record.revokedAt;
      latest.set(hash, { ...record, revokedAt });
    },
  });
  return { latest, ends: ends ?? new Map(), exists: ends !== null };
}

/** Partition → its first and next offsets; null when the topic does not exist. */
async function topicOffsets(
  kafka: Kafka,
  topic: string,
): Promise<Map<number, { low: bigint; high: bigint }> | null> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    if (!(await admin.listTopics()).includes(topic)) return null;
    const offsets = await admin.fetchTopicOffsets(topic);
    return new Map(offsets.map((p) => [p.partition, { low: BigInt(p.low), high: BigInt(p.high) }] as const));
  } finally {
    await admin.disconnect();
  }
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
