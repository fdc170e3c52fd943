import { compareFences, type LogPosition, partitionKey } from "@vu/store";

/**
 * This worker's claims on its partitions, one per partition and generation, made once per group
 * assignment, not per position: a worker that repositions must not take the partition back from a
 * later writer. A claim's fence is what a shard compares with the fences it has seen.
 */
export class PartitionClaims {
  /** "<generation>:<partition>" → the fence of this worker's claim. */
  readonly #claims = new Map<string, Promise<string>>();

  constructor(
    private readonly log: Pick<LogPosition, "claim" | "fenceOf">,
    private readonly topic: string,
  ) {}

  /** This worker's fence on the partition: its claim in this assignment, or a new one past `floor`. */
  fence(generation: number, partition: number, floor?: string): Promise<string> {
    const key = `${generation}:${partition}`;
    const known = this.#claims.get(key);
    if (known !== undefined && floor === undefined) return known;
    const claim = this.log.claim(generation, partitionKey(this.topic, partition), floor);
    this.#claims.set(key, claim);
    claim.catch(() => {
      if (this.#claims.get(key) === claim) this.#claims.delete(key);
    });
    return claim;
  }

  /** A new assignment of the group: every partition it gives is claimed again. */
  newAssignment(): void {
    this.#claims.clear();
  }

  /**
   * A shard refused this worker's call for `shardFence`: true when the log records a claim after
   * this worker's (a later writer owns the partition); otherwise the shard's fence is one the log no
   * longer records (Redis lost it, or went back), and this worker claims again past it.
   */
  async claimedByLaterWriter(generation: number, partition: number, shardFence: string): Promise<boolean> {
    // This worker's claim now: a new assignment may have claimed again since the position was
    // taken, and its own later claim is no other writer's.
    const own = await this.fence(generation, partition);
    const latest = await this.log.fenceOf(generation, partitionKey(this.topic, partition));
    if (latest !== null && compareFences(latest, own) > 0) return true;
    if (compareFences(shardFence, own) > 0) await this.fence(generation, partition, shardFence);
    return false;
  }
}
