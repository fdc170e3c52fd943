// A record batch the consumer could not decode (patches/kafkajs@2.2.4.patch): kafkajs hands it on
// as one message at the batch's last offset, flagged `undecodable`, whose value is the whole batch
// as the broker sent it. Only the decoder sets the flag: no producer can make a message look so.

/** Which offsets of a partition a record batch held that could not be read, and why. */
export interface UndecodableBatch {
  firstOffset: string;
  lastOffset: string;
  /** The codec its attributes named: none, gzip, snappy, lz4, zstd, or `codec N`. */
  codec: string;
  reason: string;
}

const isOffset = (value: unknown): value is string => typeof value === "string" && /^\d+$/.test(value);

/** The batch a consumed message stands for when it is an undecodable batch's marker; else undefined. */
export function undecodableBatchOf(message: object): UndecodableBatch | undefined {
  const flag: unknown = (message as { undecodable?: unknown }).undecodable;
  if (typeof flag !== "object" || flag === null) return undefined;
  const { firstOffset, lastOffset, codec, reason } = flag as Record<string, unknown>;
  if (!isOffset(firstOffset) || !isOffset(lastOffset)) return undefined;
  return { firstOffset, lastOffset, codec: String(codec), reason: String(reason) };
}

/** The dead-letter reason for an undecodable batch (its kind, for metrics, is `undecodable_batch`). */
export function undecodableReason({ firstOffset, lastOffset, codec, reason }: UndecodableBatch): string {
  return (
    `undecodable_batch: the ${codec} record batch at offsets ${firstOffset}-${lastOffset} could not be ` +
    `decoded (${reason}); its records are not counted`
  );
}
