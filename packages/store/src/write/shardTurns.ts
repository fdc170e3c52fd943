import type { ShardWrites } from "./applyGuard";

/**
 * On a cluster, one partition's calls to one shard go one after another, whoever makes them (the
 * groups of a chunk, an organization applied alone): each expects what the one before it left on
 * the shard (applyBatches.lua). One queue per partition's session (`ShardWrites`) and shard.
 */
export class ShardTurns {
  readonly #queues = new WeakMap<ShardWrites, Map<number, Promise<unknown>>>();

  /** Runs `work` once every call queued before it for this session and shard has settled. */
  inTurn<T>(shards: ShardWrites, shard: number, work: () => Promise<T>): Promise<T> {
    const queues = this.#queues.get(shards) ?? new Map<number, Promise<unknown>>();
    this.#queues.set(shards, queues);
    const turn = (queues.get(shard) ?? Promise.resolve()).then(work, work);
    queues.set(
      shard,
      turn.catch(() => undefined),
    );
    return turn;
  }
}
