/**
 * What a run of the end-to-end suites is: a seed (printed, overridable with VU_SEED) and a size
 * (VU_WORKLOAD=quick for CI, soak for a long run). Everything random derives from the seed.
 */
export type WorkloadName = "quick" | "soak";

export interface WorkloadSize {
  /** Organizations in the main workload. */
  organizations: number;
  /** Valid first copies produced for the main exactness test (duplicates and bad messages come on top). */
  events: number;
  /** Random queries compared with the oracle in the main exactness test. */
  queries: number;
  /** The same for each fault test. */
  faultEvents: number;
  faultQueries: number;
  /** fast-check runs per property in httpProperties. */
  propertyRuns: number;
  /** The exactness test's second workload: many organizations, most of them small. */
  manyOrganizations: { organizations: number; events: number; queries: number };
}

export const WORKLOAD_SIZES: Readonly<Record<WorkloadName, WorkloadSize>> = {
  quick: {
    organizations: 4,
    events: 4_000,
    queries: 600,
    faultEvents: 2_500,
    faultQueries: 150,
    propertyRuns: 250,
    manyOrganizations: { organizations: 1_000, events: 6_000, queries: 300 },
  },
  soak: {
    organizations: 6,
    events: 200_000,
    queries: 3_000,
    faultEvents: 30_000,
    faultQueries: 600,
    propertyRuns: 1_000,
    manyOrganizations: { organizations: 10_000, events: 200_000, queries: 1_500 },
  },
};

/** The default seed: fixed, so CI compares the same workload every time unless told otherwise. */
export const DEFAULT_SEED = 20_260_517;

export interface RunConfig {
  seed: number;
  workload: WorkloadName;
  size: WorkloadSize;
  /**
   * The instant the workload is built around: VU_ANCHOR (ISO 8601) to replay an earlier run
   * exactly (within a day: Redis expires old minute blocks by the real clock), else now.
   */
  anchorMs: number;
  anchorGiven: boolean;
}

export function runConfig(env: Record<string, string | undefined> = process.env): RunConfig {
  const workload = env.VU_WORKLOAD === "soak" ? "soak" : "quick";
  if (env.VU_WORKLOAD !== undefined && env.VU_WORKLOAD !== "" && env.VU_WORKLOAD !== workload) {
    throw new Error(`VU_WORKLOAD must be quick or soak, got ${env.VU_WORKLOAD}`);
  }
  const seedText = env.VU_SEED?.trim();
  const seed = seedText ? Number(seedText) : DEFAULT_SEED;
  if (!Number.isSafeInteger(seed)) throw new Error(`VU_SEED must be an integer, got ${seedText}`);
  const anchorText = env.VU_ANCHOR?.trim();
  const anchorMs = anchorText ? Date.parse(anchorText) : Math.floor(Date.now() / 60_000) * 60_000;
  if (Number.isNaN(anchorMs) || anchorMs % 60_000 !== 0)
    throw new Error(`VU_ANCHOR must be an ISO 8601 instant on a whole minute, got ${anchorText}`);
  return { seed, workload, size: WORKLOAD_SIZES[workload], anchorMs, anchorGiven: Boolean(anchorText) };
}

/** The environment that replays this run. */
export const replayEnv = (config: RunConfig): string =>
  `VU_SEED=${config.seed} VU_WORKLOAD=${config.workload} VU_ANCHOR=${new Date(config.anchorMs).toISOString()}`;

/** One line every suite prints first, so a failure in CI logs names what to replay. */
export function announce(suite: string, config: RunConfig): void {
  console.info(`[${suite}] ${replayEnv(config)}`);
}
