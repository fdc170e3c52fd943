/** How many organizations a reader remembers something of; past it, the one set longest ago goes. */
export const MAX_REMEMBERED_ORGS = 10_000;

/**
 * Entries per organization up to a bound. Full, it forgets the entry set longest ago, not every
 * organization at once, so one large tenant's reads never empty what the others' rely on.
 */
export class BoundedMemo<V> {
  readonly #entries = new Map<string, V>();

  constructor(readonly capacity: number = MAX_REMEMBERED_ORGS) {}

  get(key: string): V | undefined {
    return this.#entries.get(key);
  }

  set(key: string, value: V): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= this.capacity) break;
      this.#entries.delete(oldest);
    }
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }

  clear(): void {
    this.#entries.clear();
  }
}
