import type { OrganizationProfile } from "@vu/demo-data";
import type { RecordingCompletedInput } from "@vu/events";
import { allEvents, buildDataset } from "./dataset";
import { buildManyOrgDataset } from "./manyOrgDataset";

/**
 * The two data sets a size runs: `single`, one large organization beside two small ones
 * (`dataset.ts`); `many`, the multi-tenant set of many organizations with Zipf sizes
 * (`manyOrgDataset.ts`).
 */
export const SHAPES = ["single", "many"] as const;
export type Shape = (typeof SHAPES)[number];

/** Who a dashboard query is asked for: the single set's large organization, or one of the multi-tenant set's. */
export type OrganizationRole = "large" | "largest" | "median" | "smallest";

export interface QueriedOrganization {
  role: OrganizationRole;
  profile: OrganizationProfile;
  /** Its recordings in the data set. */
  count: number;
}

/** What one end-to-end run needs of a data set, whatever its shape. */
export interface BenchDataset {
  shape: Shape;
  /** `single`: the large organization's recordings; `many`: all organizations' together. */
  size: number;
  /** Events of every organization. */
  total: number;
  organizations: number;
  /** Every event lies in [fromMs, toMs). */
  fromMs: number;
  toMs: number;
  /** The organizations the dashboard queries are asked for. */
  queried: QueriedOrganization[];
  /** Every event, in the order the bench produces them; lazy, and each iteration yields the same events. */
  events: Iterable<RecordingCompletedInput>;
  /** The multi-tenant set: every organization's profile, largest first (its steady pass draws from them). */
  profiles?: readonly OrganizationProfile[];
  /** Names the run's topic, key prefix, PostgreSQL schema and CSV file: `200000`, `200000-many`. */
  key: string;
}

/** The events alone, as producing and loading them need. */
export type EventSource = Pick<BenchDataset, "total" | "events">;

export function buildBenchDataset(
  shape: Shape,
  size: number,
  options: { seed: number; toMs: number; orgs: number },
): BenchDataset {
  if (shape === "single") {
    const dataset = buildDataset(size, options.seed, options.toMs);
    return {
      shape,
      size,
      total: dataset.total,
      organizations: dataset.parts.length,
      fromMs: dataset.fromMs,
      toMs: dataset.toMs,
      queried: [{ role: "large", profile: dataset.large, count: size }],
      events: { [Symbol.iterator]: () => allEvents(dataset) },
      key: String(size),
    };
  }
  const dataset = buildManyOrgDataset({
    total: size,
    seed: options.seed,
    toMs: options.toMs,
    orgs: options.orgs,
  });
  const queried = (role: OrganizationRole, tenant: (typeof dataset.tenants)[number]) => ({
    role,
    profile: tenant.profile,
    count: tenant.count,
  });
  return {
    shape,
    size,
    total: dataset.total,
    organizations: dataset.tenants.length,
    fromMs: dataset.fromMs,
    toMs: dataset.toMs,
    queried: [
      queried("largest", dataset.largest),
      queried("median", dataset.median),
      queried("smallest", dataset.smallest),
    ],
    events: dataset.events,
    profiles: dataset.tenants.map((t) => t.profile),
    key: `${size}-many`,
  };
}
