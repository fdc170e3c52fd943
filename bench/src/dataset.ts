import {
  generateEvents,
  largeOrganization,
  type OrganizationProfile,
  smallOrganization,
} from "@vu/demo-data";
import type { RecordingCompletedInput } from "@vu/events";
import { DateTime } from "luxon";

/** One organization's share of a data set. */
export interface DatasetPart {
  profile: OrganizationProfile;
  count: number;
  events: Iterable<RecordingCompletedInput>;
}

export interface Dataset {
  /** The large organization's recording count, the "size" every result is filed under. */
  size: number;
  /** Every event lies in [fromMs, toMs): 13 months up to the last whole hour before the run. */
  fromMs: number;
  toMs: number;
  large: OrganizationProfile;
  parts: DatasetPart[];
  total: number;
}

export const LARGE_ORG = "bench-large";
/** Two small tenants beside the large one, so neither store answers for a lone organization. */
const SMALL_ORGS = ["bench-small-a", "bench-small-b"] as const;
/** Each small organization gets this share of the large one's recordings. */
const SMALL_SHARE = 0.01;

/**
 * The hour the whole run is anchored to. Thirteen months back stays inside the hour tier's 400-day
 * retention, so every stored block the API needs exists and its answers are exact (a later start
 * would make the API widen bounds and the PostgreSQL comparison meaningless).
 */
export function anchorHour(nowMs: number): number {
  return DateTime.fromMillis(nowMs, { zone: "utc" }).startOf("hour").toMillis();
}

/** The start of every data set ending at `toMs`: 13 months earlier. */
export function datasetStart(toMs: number): number {
  return DateTime.fromMillis(toMs, { zone: "utc" }).minus({ months: 13 }).toMillis();
}

/**
 * Seeded and lazy: iterating `parts[i].events` again yields the very same events, which is how
 * Kafka and PostgreSQL receive identical data without holding ten million events in memory.
 */
export function buildDataset(size: number, seed: number, toMs: number): Dataset {
  const fromMs = datasetStart(toMs);
  const large = largeOrganization(LARGE_ORG, seed);
  const profiles = [
    { profile: large, count: size },
    ...SMALL_ORGS.map((id, i) => ({
      profile: smallOrganization(id, seed + i + 1),
      count: Math.max(1, Math.round(size * SMALL_SHARE)),
    })),
  ];
  const parts = profiles.map(({ profile, count }, i) => ({
    profile,
    count,
    events: generateEvents({
      profile,
      seed: seed * 31 + i,
      fromMs,
      toMs,
      count,
      idPrefix: `${profile.organizationId}-${size}`,
    }),
  }));
  return { size, fromMs, toMs, large, parts, total: parts.reduce((n, p) => n + p.count, 0) };
}

/** All events of the data set, organization after organization. */
export function* allEvents(dataset: Dataset): Generator<RecordingCompletedInput> {
  for (const part of dataset.parts) yield* part.events;
}
