import {
  buildOrganization,
  generateEvents,
  HOME_TIME_ZONES,
  type OrganizationProfile,
  type OrganizationShape,
} from "@vu/demo-data";
import type { RecordingCompletedInput } from "@vu/events";
import { datasetStart } from "./dataset";
import { mergeSorted } from "./mergeSorted";

/**
 * The multi-tenant data set: `total` recordings over the same 13 months as `buildDataset`, spread
 * over `orgs` organizations whose sizes follow Zipf's law (rank r gets a share ∝ r^-s, s chosen so
 * the largest holds `largestShare`). With the defaults (10,000 organizations, 10 %) s ≈ 0.99 and
 * the median organization has about 210 recordings at 10M (22 at 1M), the smallest about 110.
 */
export interface ManyOrgOptions {
  total: number;
  seed: number;
  /** The end of the range, as `buildDataset`'s `toMs`. */
  toMs: number;
  /** Default 10,000. */
  orgs?: number;
  /** The largest organization's share of `total`; default 0.1. */
  largestShare?: number;
}

export interface Tenant {
  /** 1 = the largest; the organization id carries it (`bench-t00001`). */
  rank: number;
  profile: OrganizationProfile;
  count: number;
}

export interface ManyOrgDataset {
  total: number;
  fromMs: number;
  toMs: number;
  /** Largest first. */
  tenants: readonly Tenant[];
  /** Organizations to ask dashboard queries for: the largest, the median one, the smallest. */
  largest: Tenant;
  median: Tenant;
  smallest: Tenant;
  /**
   * Every event, all organizations interleaved in `recorded_at` order as one shared topic delivers
   * them (ties: the larger organization first). Lazy and re-iterable: each iteration yields the same
   * events. Memory grows with the organizations, not the events: every organization's generator is
   * live from the first event on (see README, "Multi-tenant data set").
   */
  events: Iterable<RecordingCompletedInput>;
}

export const DEFAULT_ORGS = 10_000;
const DEFAULT_LARGEST_SHARE = 0.1;

/** The organization id of a rank: `bench-t00001`, zero-padded to at least five digits. */
export function tenantId(rank: number, orgs: number): string {
  return `bench-t${String(rank).padStart(Math.max(5, String(orgs).length), "0")}`;
}

export function buildManyOrgDataset(options: ManyOrgOptions): ManyOrgDataset {
  const { total, seed, toMs, orgs = DEFAULT_ORGS, largestShare = DEFAULT_LARGEST_SHARE } = options;
  const fromMs = datasetStart(toMs);
  const tenants = tenantSizes(total, orgs, largestShare).map((count, i): Tenant => {
    const rank = i + 1;
    const id = tenantId(rank, orgs);
    const profileSeed = mix32(seed, rank);
    return { rank, count, profile: buildOrganization(id, profileSeed, tenantShape(count, profileSeed)) };
  });
  const sources = () =>
    tenants.map(({ profile, count }) =>
      generateEvents({ profile, seed, fromMs, toMs, count, idPrefix: `${profile.organizationId}-${total}` }),
    );
  const at = (tenant: number) => {
    const found = tenants[tenant];
    if (found === undefined) throw new RangeError(`no organization at ${tenant}`);
    return found;
  };
  return {
    total,
    fromMs,
    toMs,
    tenants,
    largest: at(0),
    median: at(Math.floor(tenants.length / 2)),
    smallest: at(tenants.length - 1),
    events: { [Symbol.iterator]: () => mergeSorted(sources(), (e) => Date.parse(e.recorded_at)) },
  };
}

/**
 * Each organization's recording count, largest first: every organization gets one, the rest is
 * shared out by the Zipf weights (largest remainders), so the counts sum to `total` exactly and
 * never increase with the rank.
 */
export function tenantSizes(total: number, orgs: number, largestShare = DEFAULT_LARGEST_SHARE): number[] {
  if (!(Number.isSafeInteger(orgs) && orgs >= 1)) throw new RangeError(`orgs must be ≥ 1, got ${orgs}`);
  if (!(Number.isSafeInteger(total) && total >= orgs)) {
    throw new RangeError(`need at least one recording per organization: total ${total}, orgs ${orgs}`);
  }
  if (!(largestShare > 0 && largestShare <= 1)) throw new RangeError(`largestShare ${largestShare}`);
  const s = zipfExponent(orgs, largestShare);
  const raw = Array.from({ length: orgs }, (_, i) => (i + 1) ** -s);
  const sum = raw.reduce((a, b) => a + b, 0);
  const rest = total - orgs;
  const exact = raw.map((w) => (rest * w) / sum);
  const sizes = exact.map((x) => 1 + Math.floor(x));
  let left = total - sizes.reduce((a, b) => a + b, 0);
  const byRemainder = exact
    .map((x, i) => ({ i, r: x - Math.floor(x) }))
    .sort((a, b) => b.r - a.r || a.i - b.i);
  for (const { i } of byRemainder) {
    if (left-- <= 0) break;
    sizes[i] = (sizes[i] ?? 0) + 1;
  }
  return sizes;
}

/** The exponent s for which rank 1's share 1 / Σ r^-s is `share` (bisection; 0 when share ≤ 1/orgs). */
function zipfExponent(orgs: number, share: number): number {
  const firstShare = (s: number) => {
    let sum = 0;
    for (let r = 1; r <= orgs; r++) sum += r ** -s;
    return 1 / sum;
  };
  if (firstShare(0) >= share) return 0;
  let low = 0;
  let high = 1;
  while (firstShare(high) < share) high *= 2;
  for (let step = 0; step < 50; step++) {
    const middle = (low + high) / 2;
    if (firstShare(middle) < share) low = middle;
    else high = middle;
  }
  return (low + high) / 2;
}

/**
 * What an organization with `count` recordings over 13 months looks like: about √count / 2
 * members (1 for a handful of recordings, 7 at 200, 500 at a million, at most 1000), models and
 * apps growing with the members (a one-person practice: one voice model, one language model and
 * three apps; 500 members: 6, 6 and 24), most members in one home zone (80 %, or 50 % from 100
 * members on).
 */
export function tenantShape(count: number, seed: number): OrganizationShape {
  const members = Math.min(1000, Math.max(1, Math.round(Math.sqrt(count) / 2)));
  const models = 1 + Math.floor(2 * Math.log10(members));
  return {
    memberCount: members,
    voiceModelCount: Math.min(6, models),
    namedLanguageModelCount: Math.min(7, models),
    appCount: Math.min(40, 2 + Math.round(Math.sqrt(members))),
    homeTimeZone: HOME_TIME_ZONES[(seed >>> 0) % HOME_TIME_ZONES.length] ?? "Europe/Berlin",
    homeShare: members >= 100 ? 0.5 : 0.8,
  };
}

/** A 32-bit seed from a seed and a number (murmur3's finaliser), so neighbouring ranks are unrelated. */
function mix32(seed: number, n: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ n;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) | 0;
}
