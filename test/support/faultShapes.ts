import type { RunConfig } from "./runConfig";
import { type PreparedWorkload, prepareWorkload } from "./scenario";

export interface FaultShape {
  shape: string;
  prepared: PreparedWorkload;
}

/**
 * The two data shapes every fault runs on: a few organizations of some size, and many, most of them
 * small (their blocks in containers, several organizations per script call), as most tenants are.
 * For `it.each(...)("... ($shape)")`.
 */
export function faultShapes(
  suite: string,
  events: (config: RunConfig) => number,
): [few: FaultShape, many: FaultShape] {
  return [
    { shape: "a few organizations", prepared: prepareWorkload(suite, events) },
    {
      shape: "many small organizations",
      prepared: prepareWorkload(`${suite}-many`, events, {
        organizations: (config) => config.size.manyOrganizations.organizations,
      }),
    },
  ];
}

/** How long a fault test may take: a soak's workload is much larger. */
export function faultTimeout(shapes: readonly FaultShape[], quickMs: number): number {
  return shapes[0]?.prepared.config.workload === "soak" ? 3_600_000 : quickMs;
}
