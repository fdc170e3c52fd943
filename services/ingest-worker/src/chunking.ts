/** The part of a Kafka message chunking reads: its key is the organization (docs/contract.md §1). */
export interface KeyedMessage {
  key: Buffer | null;
}

/** Where a partition batch is cut into the chunks applied one after another. */
export interface ChunkLimits {
  /** The most messages a chunk holds. */
  messages: number;
  /** The most messages of one message key (one organization) a chunk holds. */
  perKey: number;
}

/**
 * A chunk grows until it holds `messages` messages or `perKey` of one organization. What a script
 * call costs in Redis is mostly per organization it touches, so a chunk spread over many small
 * organizations is let grow (each of them then brings more recordings per call); the per-key cap
 * keeps one organization's batch, which is applied in one script call, short enough that no call
 * holds Redis for long (docs/decisions/0004-ingest-chunks-overlap-redis.md).
 */
export const CHUNK_LIMITS: ChunkLimits = { messages: 50_000, perKey: 5_000 };

/**
 * The end (exclusive) of the chunk of `messages` that starts at `from`. Keys are only counted: a
 * message with a wrong or missing key is still validated and counted by what it says. A producer
 * that keys one organization's messages inconsistently can put up to `messages` of them in one
 * chunk, and so in one script call: still bounded, only longer.
 */
export function chunkEnd(messages: readonly KeyedMessage[], from: number, limits = CHUNK_LIMITS): number {
  const last = Math.min(messages.length, from + limits.messages);
  const perKey = new Map<string, number>();
  for (let i = from; i < last; i++) {
    const key = messages[i]?.key?.toString("latin1") ?? "";
    const count = (perKey.get(key) ?? 0) + 1;
    if (count > limits.perKey) return i;
    perKey.set(key, count);
  }
  return last;
}
