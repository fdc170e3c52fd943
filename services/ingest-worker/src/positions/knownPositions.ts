import type { Position } from "./position";

/**
 * The positions this worker holds, per partition: the lookup in flight or done (what `resumeAt`
 * hands out), and the settled ones, for synchronous reads. A lookup that fails is forgotten, so the
 * next batch looks again.
 */
export class KnownPositions {
  readonly #lookups = new Map<number, Promise<Position>>();
  readonly #settled = new Map<number, Position>();

  lookup(partition: number): Promise<Position> | undefined {
    return this.#lookups.get(partition);
  }

  hasLookup(partition: number): boolean {
    return this.#lookups.has(partition);
  }

  /** Makes `pending` the partition's lookup; it settles unless another replaced it meanwhile. */
  track(partition: number, pending: Promise<Position>): Promise<Position> {
    this.#settled.delete(partition);
    this.#lookups.set(partition, pending);
    pending.then(
      (position) => {
        if (this.#lookups.get(partition) === pending) this.#settled.set(partition, position);
      },
      () => {
        if (this.#lookups.get(partition) === pending) this.#lookups.delete(partition);
      },
    );
    return pending;
  }

  settled(partition: number): Position | undefined {
    return this.#settled.get(partition);
  }

  /** A copy of the settled positions: what this worker knew at a moment. */
  settledNow(): Map<number, Position> {
    return new Map(this.#settled);
  }

  /** Records a position moved on (an advance), settled at once. */
  remember(partition: number, position: Position): void {
    this.#lookups.set(partition, Promise.resolve(position));
    this.#settled.set(partition, position);
  }

  forget(partition: number): void {
    this.#lookups.delete(partition);
    this.#settled.delete(partition);
  }

  /** Drops the lookups of partitions no longer `owned`; what settled stays until the next reposition. */
  dropLookupsOutside(owned: readonly number[]): void {
    for (const partition of this.#lookups.keys())
      if (!owned.includes(partition)) this.#lookups.delete(partition);
  }

  clear(): void {
    this.#lookups.clear();
    this.#settled.clear();
  }
}
