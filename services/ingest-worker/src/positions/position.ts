import type { ShardWrites } from "@vu/store";

/** Where one partition stands for this worker, in one epoch of one generation. */
export interface Position {
  generation: number;
  epoch: string;
  /** Where the partition resumes. */
  next: string;
  /** The checkpoint as Redis holds it (null: none yet), which the next advance must find there. */
  stored: string | null;
  /** The partition's writes on the shards (a cluster), kept through the position's advances. */
  shards: ShardSession;
  /** The fence of this worker's claim on the partition in this generation (LogPosition.claim). */
  fence: string;
}

/** What a position knows of its partition's writes on the shards (a cluster; `ShardWrites`). */
export interface ShardSession {
  /** Shard → the count its checkpoint recorded when the position was established. */
  readonly recorded: ReadonlyMap<number, number>;
  /**
   * Shard → the call ids it may hold from this worker's calls since: the last one confirmed, then
   * those of later calls whose replies never came.
   */
  readonly calls: Map<number, string[]>;
}

export interface ChunkShardWrites extends ShardWrites {
  /** Shard → the write count this chunk's calls left on it. */
  readonly written: ReadonlyMap<number, number>;
}

/**
 * The apply guard's shard writes for one chunk applied from `position` (on a cluster; a single
 * Redis ignores them): the count the partition's checkpoint recorded on each shard, the id of this
 * worker's last call there, and what the chunk's calls leave (`written`).
 */
export function chunkShardWrites({ shards, fence }: Position): ChunkShardWrites {
  const written = new Map<number, number>();
  return {
    fence,
    written,
    least: (shard) => shards.recorded.get(shard) ?? 0,
    callIds: (shard) => shards.calls.get(shard) ?? [],
    wrote(shard, count, callId) {
      shards.calls.set(shard, [callId]);
      written.set(shard, Math.max(count, written.get(shard) ?? 0));
    },
    // Before a first confirmed call the count alone is checked, which an unconfirmed one only raises.
    unconfirmed(shard, callId) {
      shards.calls.get(shard)?.push(callId);
    },
  };
}
