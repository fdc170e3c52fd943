import type { BlockRef } from "@vu/store";
import { ceilUtc, isBlockKept, type Retention, TIERS, type Tier } from "@vu/time-buckets";

/** A block added to (+1) or subtracted from (−1) a sum: see signedCover.ts. */
export interface SignedBlock extends BlockRef {
  sign: 1 | -1;
}

/** A half-open interval of Unix time (ms), [startMs, endMs). */
export interface TimeRange {
  startMs: number;
  endMs: number;
}

/** Whether the block of `tier` starting at `startMs` exists in the store at query time. */
export type IsKept = (tier: Tier, startMs: number) => boolean;

/** Covers found by earlier plans, by interval (coverCache.ts builds one). */
export interface CoverCache {
  readonly retention: Retention;
  cover(startMs: number, endMs: number, isKept: IsKept, search: () => SignedBlock[]): readonly SignedBlock[];
}

/** What the planner needs to know about the moment of the query. */
export interface PlanContext {
  /** The time of the request, Unix time (ms). */
  now: number;
  retention: Retention;
  /** Where the organization may have data (dataExtent.ts); no block outside it is planned. */
  dataExtent?: TimeRange | undefined;
  /** Stored blocks a plan may read; planning stops with an InvalidParameterError past it. */
  maxBlocks?: number;
  /** Covers found by earlier plans (coverCache.ts); used when made for this retention. */
  covers?: CoverCache;
}

/** The store's retention rule at the query's `now`, as a predicate. */
export function keptAt({ now, retention }: PlanContext): IsKept {
  return (tier, startMs) => isBlockKept(retention, tier, startMs, now);
}

/**
 * What `keptAt` answers, as a string: two moments with the same string count exactly the same
 * blocks as stored, so a plan made at one holds at the other. A block is kept when it started
 * within its tier's window, so for aligned blocks only the first kept start of each tier matters;
 * it moves once a minute at most.
 */
export function keptState({ now, retention }: PlanContext): string {
  return TIERS.map((tier) => {
    const keep = retention[tier];
    return keep === null ? "" : String(ceilUtc(tier, now - keep));
  }).join(",");
}
