import { type BoundedLane, createBoundedLane, type LaneLimits, retryAfterSeconds } from "./boundedLane";

/**
 * A bound on what one organization's uncached questions may take of the API at once (docs/contract.md §8:
 * heavy work is bounded, queued or refused, never a stall): at most `concurrent` computations
 * per organization, `queued` more waiting up to `waitMs` for a slot, and the rest refused with
 * `OrganizationBusyError` (the HTTP layer answers 429 with `Retry-After`). Cached answers and
 * requests that join a computation already under way do not pass through it. Other
 * organizations' questions never wait behind it.
 */
export type OrganizationGateOptions = LaneLimits;

export class OrganizationBusyError extends Error {
  constructor(
    readonly org: string,
    /** When to try again, in whole seconds. */
    readonly retryAfterS: number,
  ) {
    super(`organization ${org} has too many questions being computed`);
    this.name = "OrganizationBusyError";
  }
}

export interface OrganizationGate {
  run<T>(org: string, work: () => Promise<T>): Promise<T>;
}

export function createOrganizationGate(limits: OrganizationGateOptions): OrganizationGate {
  const lanes = new Map<string, BoundedLane>();
  const retryAfterS = retryAfterSeconds(limits);

  return {
    async run(org, work) {
      let lane = lanes.get(org);
      if (lane === undefined) {
        lane = createBoundedLane(limits);
        lanes.set(org, lane);
      }
      await lane.acquire(() => new OrganizationBusyError(org, retryAfterS));
      try {
        return await work();
      } finally {
        lane.release();
        if (lane.idle()) lanes.delete(org);
      }
    },
  };
}
