import { partitionKey } from "@vu/store";
import type { Admin } from "kafkajs";

/** Each partition's first and next offsets, as the admin gives them. */
export type TopicOffsets = Awaited<ReturnType<Admin["fetchTopicOffsets"]>>;

/** Each partition that holds messages, to be replayed up to its end as it is now. */
export function replayTargets(topic: string, offsets: TopicOffsets): Map<string, string> {
  return new Map(
    offsets
      .filter((p) => Number(p.high) > Number(p.low))
      .map((p) => [partitionKey(topic, p.partition), p.high] as const),
  );
}

/** Partitions whose first events the topic no longer holds: a replay of them cannot be whole. */
export const trimmedPartitions = (offsets: TopicOffsets): number[] =>
  offsets.filter((p) => Number(p.low) > 0).map((p) => p.partition);

/** Why a replay that `why` needs cannot make the view whole. */
export const cannotRebuild = (why: string, trimmed: readonly number[]): string =>
  `${why}, and the topic no longer holds its first events (partitions ${trimmed.join(", ")}): ` +
  "the view cannot be rebuilt whole; see the README's operations section";

/**
 * Why a partition's checkpoint cannot be resumed from without losing events: below the topic's
 * first offset (retention or deletion took events the view never applied), or above its end (the
 * topic was deleted and created again, or lost messages in an unclean leader election).
 */
export function gapOf(
  partition: number,
  stored: string | null,
  low: string,
  high: string,
): string | undefined {
  if (stored === null) return undefined;
  if (Number(stored) < Number(low)) {
    return (
      `partition ${partition}: the topic no longer holds offsets ${stored}-${Number(low) - 1}, ` +
      "which the view has not applied"
    );
  }
  if (Number(stored) > Number(high)) {
    return (
      `partition ${partition}: the view has applied up to offset ${Number(stored) - 1} but the topic ends ` +
      `at ${high} (deleted and created again, or it lost messages)`
    );
  }
  return undefined;
}

/** Where a partition resumes: its checkpoint, or outside the topic's offsets (see gapOf) the nearest it holds. */
export function resumeOffset(stored: string | null, low: string, high: string): string {
  if (stored === null || Number(stored) < Number(low)) return low;
  return Number(stored) > Number(high) ? high : stored;
}
