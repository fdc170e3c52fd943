import type { Admission, LargeReads } from "./largeReads";
import type { OrganizationGate } from "./organizationGate";

/**
 * Runs one computation of an organization's answer within the bounds on heavy work: its
 * organization's gate (organizationGate.ts), then the large-read lane (largeReads.ts), which hands
 * the computation its admission. An answer taken from the result cache, or from a computation
 * already under way, computes nothing and so passes no bound.
 */
export type ComputationBounds = <T>(org: string, compute: (admission: Admission) => Promise<T>) => Promise<T>;

export function createComputationBounds(gate: OrganizationGate, largeReads: LargeReads): ComputationBounds {
  return (org, compute) => gate.run(org, () => largeReads.run(compute, org));
}

/** No bound: every computation runs at once and reads whatever it reads. */
export const UNBOUNDED_COMPUTATIONS: ComputationBounds = (_org, compute) => compute({});
