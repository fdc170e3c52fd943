import type { Admin } from "kafkajs";

/**
 * Kafka's committed offsets of the worker's group: every message below one was handled and its
 * dead letters sent. The worker commits only after the view's checkpoint moved, so they also tell
 * when Redis holds less than it once did.
 */
export class CommittedOffsets {
  /** Partition → the highest offset committed. */
  readonly #below = new Map<number, number>();

  constructor(
    private readonly admin: Pick<Admin, "fetchOffsets">,
    private readonly groupId: string,
    private readonly topic: string,
  ) {}

  /** Asks Kafka again; true when the group has committed any offset of the topic. */
  async refresh(): Promise<boolean> {
    const [committed] = await this.admin.fetchOffsets({ groupId: this.groupId, topics: [this.topic] });
    let any = false;
    for (const { partition, offset } of committed?.partitions ?? []) {
      if (Number(offset) < 0) continue;
      any = true;
      this.#below.set(partition, Math.max(this.#below.get(partition) ?? 0, Number(offset)));
    }
    return any;
  }

  /** Dead letters of messages below this offset were sent before: a replay only counts them. */
  sentBelow(partition: number): number {
    return this.#below.get(partition) ?? 0;
  }

  /**
   * Whether the group has committed past `checkpoint`, Redis' checkpoint of the partition: Redis
   * then holds less than it once did (restored from an older snapshot while no worker was there
   * to see the checkpoint go back).
   */
  async pastCheckpoint(partition: number, checkpoint: string | undefined): Promise<boolean> {
    await this.refresh();
    const committed = this.#below.get(partition);
    return committed !== undefined && checkpoint !== undefined && committed > Number(checkpoint);
  }
}
