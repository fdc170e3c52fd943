/**
 * Slots for work: at most `concurrent` hold one at once, `queued` more wait up to `waitMs` for one
 * (first come, first served), and the rest are refused at once. The refusal is the caller's error.
 */
export interface LaneLimits {
  concurrent: number;
  queued: number;
  waitMs: number;
}

export interface BoundedLane {
  /** A slot now, or once one frees within `waitMs`; else rejects with `refuse()`. */
  acquire(refuse: () => Error): Promise<void>;
  release(): void;
  /** No slot held and nobody waiting. */
  idle(): boolean;
}

/** Whole seconds a refused client should wait: the longest a queued one waits. */
export const retryAfterSeconds = (limits: LaneLimits): number => Math.max(1, Math.ceil(limits.waitMs / 1000));

export function createBoundedLane({ concurrent, queued, waitMs }: LaneLimits): BoundedLane {
  let active = 0;
  const waiting: Array<() => void> = [];
  return {
    acquire(refuse) {
      if (active < concurrent) {
        active++;
        return Promise.resolve();
      }
      if (waiting.length >= queued) return Promise.reject(refuse());
      return new Promise((resolve, reject) => {
        const admit = () => {
          clearTimeout(timer);
          active++;
          resolve();
        };
        const timer = setTimeout(() => {
          waiting.splice(waiting.indexOf(admit), 1);
          reject(refuse());
        }, waitMs);
        waiting.push(admit);
      });
    },
    release() {
      active--;
      waiting.shift()?.();
    },
    idle: () => active === 0 && waiting.length === 0,
  };
}
