import { type LogPosition, type LogRecord, partitionKey } from "@vu/store";
import type { TopicOffsets } from "./topicGaps";

export interface AsOfRefreshOptions {
  log: Pick<LogPosition, "advance">;
  topic: string;
  topicOffsets(): Promise<TopicOffsets>;
  /** The clock of the "as of" instants (Date.now). */
  now: () => number;
}

/**
 * An owned partition whose checkpoint is its high watermark holds every message appended before
 * the high watermark was asked for: its "as of" becomes the instant just before asking. Written
 * only if the checkpoint is still the one read (an advance to the same checkpoint: compare and
 * set), so a batch moving it meanwhile keeps its own. One offsets request per check, and none
 * while this worker owns no partition with a checkpoint.
 */
export async function refreshAsOf(
  { log, topic, topicOffsets, now }: AsOfRefreshOptions,
  generation: number,
  record: LogRecord,
  owned: readonly number[],
): Promise<void> {
  const { epoch } = record;
  if (epoch === null) return;
  const withCheckpoint = owned.filter((p) => record.checkpoints.has(partitionKey(topic, p)));
  if (withCheckpoint.length === 0) return;
  const asOfMs = now();
  const offsets = await topicOffsets();
  for (const { partition, high } of offsets) {
    const key = partitionKey(topic, partition);
    const stored = record.checkpoints.get(key);
    if (!withCheckpoint.includes(partition) || stored === undefined || Number(stored) !== Number(high))
      continue;
    await log.advance(generation, { epoch, partition: key, expected: stored, next: stored, asOfMs });
  }
}
