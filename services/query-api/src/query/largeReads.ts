import { createBoundedLane, type LaneLimits, retryAfterSeconds } from "./boundedLane";

/**
 * A bound on large reads across all organizations in this process (docs/contract.md §8): a read
 * whose fields, by the keys' sizes, exceed LARGE_READ_FIELDS holds Redis (in slices) and this
 * process' thread far longer than an ordinary question, so at most `concurrent` run at once,
 * `queued` more wait up to `waitMs`, and the rest are refused with `LargeReadsBusyError` (the HTTP
 * layer answers 503 with `Retry-After`). Ordinary reads never pass through it, so a small
 * organization's question never waits behind a large one of any organization. The slot is held
 * until the computation that read ends (its summing is the other half of the cost).
 */
export type LargeReadsOptions = LaneLimits;

export class LargeReadsBusyError extends Error {
  constructor(
    readonly fields: number,
    /** When to try again, in whole seconds. */
    readonly retryAfterS: number,
  ) {
    super(`too many large questions are being computed (this one reads ${fields} fields)`);
    this.name = "LargeReadsBusyError";
  }
}

/** What a computation may ask of the bound: `beforeLargeRead` for the store (ReadOptions). */
export interface Admission {
  beforeLargeRead?: (fields: number) => Promise<void>;
}

export interface LargeReads {
  /**
   * Runs `work` of organization `org` with an admission; a slot it took is given back when `work`
   * settles. Organizations take turns for slots, and none holds more than a quarter of the queue.
   */
  run<T>(work: (admission: Admission) => Promise<T>, org?: string): Promise<T>;
}

/** No bound: every read goes ahead. */
export const UNBOUNDED_READS: LargeReads = { run: (work) => work({}) };

/** One organization's share of the large-read queue: a quarter (at least one place). */
export const queuedPerOrganization = (queued: number): number => Math.max(1, Math.floor(queued / 4));

/**
 * A large read this process does not make: the large-read process does (apiProcesses.ts), and the
 * HTTP layer hands it the request (http/largeReadForwarding.ts). Thrown before anything is read.
 */
export class LargeReadElsewhereError extends Error {
  constructor(readonly fields: number) {
    super(`a large read (${fields} fields) is made by the large-read process`);
    this.name = "LargeReadElsewhereError";
  }
}

/** Every large read is left to the large-read process: the computation stops before reading. */
export const LARGE_READS_ELSEWHERE: LargeReads = {
  run: (work) =>
    work({
      beforeLargeRead: async (fields) => {
        throw new LargeReadElsewhereError(fields);
      },
    }),
};

export function createLargeReads(limits: LargeReadsOptions): LargeReads {
  const lane = createBoundedLane({ queuedPerKey: queuedPerOrganization(limits.queued), ...limits });
  const retryAfterS = retryAfterSeconds(limits);
  return {
    async run(work, org) {
      let held = false;
      const admission: Admission = {
        // A computation that reads twice (its extent moved) holds one slot, not two.
        beforeLargeRead: async (fields) => {
          if (held) return;
          await lane.acquire(() => new LargeReadsBusyError(fields, retryAfterS), org);
          held = true;
        },
      };
      try {
        return await work(admission);
      } finally {
        if (held) lane.release();
      }
    },
  };
}
