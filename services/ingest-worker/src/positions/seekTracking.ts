/**
 * What tells a partition's seeks apart: the batches begun of each (every batch asks `resumeAt`
 * first), so a watcher leaves a busy partition alone, and the offset each was last sought to.
 */
export class SeekTracking {
  readonly #begun = new Map<number, number>();
  readonly #soughtTo = new Map<number, string>();

  /** A batch of the partition begins. */
  begin(partition: number): void {
    this.#begun.set(partition, (this.#begun.get(partition) ?? 0) + 1);
  }

  /** A test of whether each of `partitions` has begun no batch since this call. */
  idleFromNow(partitions: readonly number[]): (partition: number) => boolean {
    const before = new Map(partitions.map((p) => [p, this.#begun.get(p) ?? 0]));
    return (partition) => (this.#begun.get(partition) ?? 0) === before.get(partition);
  }

  /**
   * Whether a batch starting at `first` must be dropped for a seek to `next`. A batch that starts
   * past `next` right after a seek there is taken as it is: the log has no messages in between
   * (offsets it skips, such as control records).
   */
  mustSeek(partition: number, first: string, next: string): boolean {
    if (first === next || (Number(first) > Number(next) && this.#soughtTo.get(partition) === next)) {
      this.#soughtTo.delete(partition);
      return false;
    }
    this.#soughtTo.set(partition, next);
    return true;
  }
}
