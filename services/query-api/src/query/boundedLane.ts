/**
 * Slots for work: at most `concurrent` hold one at once, `queued` more wait up to `waitMs` for one,
 * and the rest are refused at once. The refusal is the caller's error.
 *
 * Waiters may name a key (an organization): then no key waits for more than `queuedPerKey` of the
 * queue's places, and a freed slot goes to the keys in turn (the one that has had a slot least
 * recently first, each key's own waiters in arrival order), so one key's many questions never keep
 * another's out. Without keys it is first come, first served.
 */
export interface LaneLimits {
  concurrent: number;
  queued: number;
  waitMs: number;
  /** The most places of the queue one key holds; default all of them. */
  queuedPerKey?: number;
}

export interface BoundedLane {
  /** A slot now, or once one frees within `waitMs`; else rejects with `refuse()`. */
  acquire(refuse: () => Error, key?: string): Promise<void>;
  release(): void;
  /** No slot held and nobody waiting. */
  idle(): boolean;
}

/** Whole seconds a refused client should wait: the longest a queued one waits. */
export const retryAfterSeconds = (limits: LaneLimits): number => Math.max(1, Math.ceil(limits.waitMs / 1000));

const NO_KEY = "";

export function createBoundedLane({
  concurrent,
  queued,
  waitMs,
  queuedPerKey = queued,
}: LaneLimits): BoundedLane {
  let active = 0;
  let waitingCount = 0;
  /** Key → its waiters in arrival order; the map's order is the turn order of the keys. */
  const waiting = new Map<string, Array<() => void>>();

  function leave(key: string, admit: () => void): void {
    const queue = waiting.get(key);
    if (queue === undefined) return;
    queue.splice(queue.indexOf(admit), 1);
    if (queue.length === 0) waiting.delete(key);
    waitingCount--;
  }

  return {
    acquire(refuse, key = NO_KEY) {
      if (active < concurrent) {
        active++;
        return Promise.resolve();
      }
      const queue = waiting.get(key) ?? [];
      if (waitingCount >= queued || queue.length >= queuedPerKey) return Promise.reject(refuse());
      return new Promise((resolve, reject) => {
        const admit = () => {
          clearTimeout(timer);
          active++;
          resolve();
        };
        const timer = setTimeout(() => {
          leave(key, admit);
          reject(refuse());
        }, waitMs);
        queue.push(admit);
        waiting.set(key, queue);
        waitingCount++;
      });
    },
    release() {
      active--;
      const next = waiting.entries().next();
      if (next.done) return;
      const [key, queue] = next.value;
      const admit = queue[0] as () => void;
      leave(key, admit);
      // The key goes to the back of the turn order if it still has waiters.
      if (waiting.delete(key)) waiting.set(key, queue);
      admit();
    },
    idle: () => active === 0 && waitingCount === 0,
  };
}
