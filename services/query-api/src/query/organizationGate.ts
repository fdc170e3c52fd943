/**
 * A bound on what one organization's uncached questions may take of the API at once (docs/contract.md §8:
 * heavy work is bounded, queued or refused, never a stall): at most `concurrent` computations
 * per organization, `queued` more waiting up to `waitMs` for a slot, and the rest refused with
 * `OrganizationBusyError` (the HTTP layer answers 429 with `Retry-After`). Cached answers and
 * requests that join a computation already under way do not pass through it. Other
 * organizations' questions never wait behind it.
 */
export interface OrganizationGateOptions {
  concurrent: number;
  queued: number;
  waitMs: number;
}

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

interface Lane {
  active: number;
  waiting: Array<() => void>;
}

export function createOrganizationGate({
  concurrent,
  queued,
  waitMs,
}: OrganizationGateOptions): OrganizationGate {
  const lanes = new Map<string, Lane>();
  const retryAfterS = Math.max(1, Math.ceil(waitMs / 1000));

  /** A slot for `org`, now or once one frees within `waitMs`; else the refusal. */
  function acquire(org: string, lane: Lane): Promise<void> {
    if (lane.active < concurrent) {
      lane.active++;
      return Promise.resolve();
    }
    if (lane.waiting.length >= queued) return Promise.reject(new OrganizationBusyError(org, retryAfterS));
    return new Promise((resolve, reject) => {
      const admit = () => {
        clearTimeout(timer);
        lane.active++;
        resolve();
      };
      const timer = setTimeout(() => {
        lane.waiting.splice(lane.waiting.indexOf(admit), 1);
        reject(new OrganizationBusyError(org, retryAfterS));
      }, waitMs);
      lane.waiting.push(admit);
    });
  }

  function release(org: string, lane: Lane): void {
    lane.active--;
    const next = lane.waiting.shift();
    if (next) next();
    else if (lane.active === 0) lanes.delete(org);
  }

  return {
    async run(org, work) {
      let lane = lanes.get(org);
      if (lane === undefined) {
        lane = { active: 0, waiting: [] };
        lanes.set(org, lane);
      }
      await acquire(org, lane);
      try {
        return await work();
      } finally {
        release(org, lane);
      }
    },
  };
}
