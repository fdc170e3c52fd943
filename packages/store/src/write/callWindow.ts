/**
 * At most `size` script calls of one writer sent and not yet answered; the next waits, in the
 * order made, for one to settle.
 *
 * Why a window: the Redis client's command timeout counts from the send, so a chunk of many
 * organizations on every partition, sent at once (and another worker's beside it), queued in
 * Redis past the timeout; the calls that timed out still ran and their retries were sent on top
 * of them, and the queue never drained (docs/decisions/0030-call-window.md).
 *
 * Why not p-limit: it starts a function in a later microtask, and the batch handler relies on a
 * chunk's first calls being written before it goes on to prepare the next chunk synchronously,
 * which is what lets Redis work while the worker does.
 */
export class CallWindow {
  readonly #size: number;
  readonly #waiting: Array<() => void> = [];
  #open = 0;

  constructor(size: number) {
    if (!(Number.isSafeInteger(size) && size >= 1)) throw new RangeError(`a call window of ${size}`);
    this.#size = size;
  }

  /** Calls sent and not yet settled. */
  get open(): number {
    return this.#open;
  }

  /** Calls waiting for a place. */
  get waiting(): number {
    return this.#waiting.length;
  }

  /** Runs `send` now (synchronously) if a place is free, otherwise once one is, first come first served. */
  run<T>(send: () => Promise<T>): Promise<T> {
    if (this.#open < this.#size) return this.#start(send);
    return new Promise<T>((resolve, reject) => {
      this.#waiting.push(() => this.#start(send).then(resolve, reject));
    });
  }

  #start<T>(send: () => Promise<T>): Promise<T> {
    this.#open++;
    let sent: Promise<T>;
    try {
      sent = send();
    } catch (error) {
      sent = Promise.reject(error);
    }
    const release = () => {
      this.#open--;
      this.#waiting.shift()?.();
    };
    sent.then(release, release);
    return sent;
  }
}
