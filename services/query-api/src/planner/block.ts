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

/** One bucket of an answer, as cut from the range (bucketCutting.ts). */
export interface OutputBucket extends TimeRange {
  /** The bucket's full local start (even when the range cuts it), ISO 8601 with ms and offset. */
  label: string;
}

/** Whether the block of `tier` starting at `startMs` exists in the store at query time. */
export type IsKept = (tier: Tier, startMs: number) => boolean;

/** Covers found by earlier plans, by interval (coverCache.ts builds one). */
export interface CoverCache {
  readonly retention: Retention;
  cover(startMs: number, endMs: number, isKept: IsKept, search: () => SignedBlock[]): readonly SignedBlock[];
}

/** A range's buckets as `cutRange` cuts them (queryPlan.ts). */
export interface CachedCut {
  rangeBuckets: readonly OutputBucket[];
  snapped: readonly OutputBucket[];
  frame: string;
}

/** Every snapped bucket of a cut with its signed cover, whoever asks. */
export interface CoveredCut {
  /** The snapped buckets in order, each with its blocks. Shared: never modified. */
  buckets: readonly (OutputBucket & { blocks: readonly SignedBlock[] })[];
}

/**
 * A cut, and its covers once a plan needed them: with their number of blocks, so that a plan of
 * any budget knows whether they fit it (a compare's previous range gets what the first range left);
 * or, when covering stopped past a budget, that budget, which any smaller one cannot meet either.
 */
export interface CutEntry {
  /** Its key in the cut cache ("" when not kept there). */
  readonly key: string;
  cut: CachedCut;
  covered?: { cover: CoveredCut; blocks: number } | { cover: null; over: number };
}

/**
 * Cuts already made, and their covers, by what decides them: the range as resolved, its zone, the
 * bucketing and which blocks are kept (`keptState`). Not by organization: every organization asking
 * for the same 30 days by hour gets the same 720 buckets, labels and covers, and a plan takes its
 * organization's part of them by two binary searches (queryPlan.ts). Cutting, labelling and
 * covering were most of a small organization's question. Bounded by the buckets held.
 */
export interface CutCache {
  /** The retention its cuts were made under: a plan under another does not use it. */
  readonly retention: Retention;
  get(key: string): CutEntry | undefined;
  set(key: string, entry: CutEntry): void;
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
  /** Cuts and their covers made by earlier plans (cutCache.ts); used when made for this retention. */
  cuts?: CutCache;
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
