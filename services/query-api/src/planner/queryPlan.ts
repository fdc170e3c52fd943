import type { Zone } from "luxon";
import { keptAt, type PlanContext, type SignedBlock, type TimeRange } from "./block";
import { cutBuckets } from "./bucketCutting";
import { clampToExtent, mayHoldData } from "./dataExtent";
import { DEFAULT_GRANULARITY, type StatsGranularity, WHOLE_RANGE } from "./granularity";
import { formatInstant } from "./instantFormat";
import { InvalidParameterError } from "./invalidParameterError";
import { type RangeParams, type ResolvedRange, resolveRange } from "./rangeResolution";
import { snapBuckets } from "./retentionGrid";
import { coverSigned } from "./signedCover";

export interface StatsPlanParams extends RangeParams {
  /** Defaults to `day`; `all` is the whole range as one bucket. */
  granularity?: StatsGranularity | undefined;
}

/** The range members of `meta` (the HTTP layer adds `group_by`). */
export interface RangeMeta {
  /** The resolved start actually used, ISO 8601 with ms and offset in the query zone. */
  start_date: string;
  /** The resolved end actually used (exclusive), same format. */
  end_date: string;
  timezone: string;
}

/** One output bucket with the stored blocks whose signed sum is exactly its part of the range. */
export interface PlannedBucket extends TimeRange {
  /** `time_bucket`: the bucket's full local start, ISO 8601 with ms and offset. */
  label: string;
  /** Shared with other plans through the cover cache: never modified. */
  blocks: readonly SignedBlock[];
}

export interface StatsPlan {
  range: TimeRange;
  zoneName: string;
  meta: RangeMeta & { granularity: StatsGranularity };
  /**
   * Sorted and disjoint, spanning `range` except where no bucket can hold data: buckets left empty
   * by snapping, and buckets outside the organization's data extent, are omitted.
   */
  buckets: PlannedBucket[];
  /**
   * Every bucket of the range, in order, those that cannot hold data included (docs/contract.md
   * §7 `fill=zero`: every bucket appears). A bucket of `buckets` has the same label as one of these.
   */
  rangeBuckets: ReadonlyArray<{ label: string; startMs: number }>;
}

export interface TotalPlan {
  range: TimeRange;
  zoneName: string;
  meta: RangeMeta;
  /** The blocks whose signed sum is exactly `range` (empty time outside the data extent is not read). */
  blocks: SignedBlock[];
}

function rangeMeta(range: TimeRange, zone: Zone, zoneName: string): RangeMeta {
  return {
    start_date: formatInstant(range.startMs, zone),
    end_date: formatInstant(range.endMs, zone),
    timezone: zoneName,
  };
}

/**
 * Plans `GET /api/v1/stats`: resolves the range, cuts it into local buckets, moves bucket edges
 * onto stored block edges (retentionGrid.ts), and covers each bucket with the fewest blocks, added
 * or subtracted (signedCover.ts).
 * Throws InvalidParameterError for invalid parameters and for ranges needing too many buckets.
 */
export function planQuery(params: StatsPlanParams, context: PlanContext): StatsPlan {
  return planStatsRange(resolveRange(params, context), params.granularity ?? DEFAULT_GRANULARITY, context);
}

/** planQuery for a range already resolved (docs/contract.md §7 `compare`: the previous range). */
export function planStatsRange(
  resolved: ResolvedRange,
  granularity: StatsGranularity,
  context: PlanContext,
): StatsPlan {
  if (granularity === WHOLE_RANGE) return planWholeRange(resolved, context);
  const { zone, zoneName, ...range } = resolved;
  const isKept = keptAt(context);
  const covers = context.covers?.retention === context.retention ? context.covers : undefined;
  const cover = (startMs: number, endMs: number): readonly SignedBlock[] =>
    covers
      ? covers.cover(startMs, endMs, isKept, () => coverSigned(startMs, endMs, isKept))
      : coverSigned(startMs, endMs, isKept);
  const meta = rangeMeta(range, zone, zoneName);
  const budget = blockBudget(meta, context.maxBlocks);
  const rangeBuckets = cutBuckets(range, granularity, zone);
  const buckets = snapBuckets(rangeBuckets, range, isKept)
    .filter((bucket) => mayHoldData(bucket, context.dataExtent))
    .map((bucket) => ({
      ...bucket,
      blocks: budget.spend(cover(bucket.startMs, bucket.endMs)),
    }));
  return { range, zoneName, meta: { ...meta, granularity }, buckets, rangeBuckets };
}

/**
 * `granularity=all`: the whole range as one bucket, labelled with the range's start and covered as
 * the summary's interval is (so it reads only where the organization has data).
 */
function planWholeRange(resolved: ResolvedRange, context: PlanContext): StatsPlan {
  const { range, zoneName, meta, blocks } = planTotalRange(resolved, context);
  // An empty range has no bucket, as it has none of any other size.
  const buckets = range.endMs > range.startMs ? [{ label: meta.start_date, ...range, blocks }] : [];
  return { range, zoneName, meta: { ...meta, granularity: WHOLE_RANGE }, buckets, rangeBuckets: buckets };
}

/** Plans `GET /api/v1/stats/summary`: the same range, answered as one interval. */
export function planTotal(params: RangeParams, context: PlanContext): TotalPlan {
  return planTotalRange(resolveRange(params, context), context);
}

/** planTotal for a range already resolved (docs/contract.md §7 `compare`: the previous range). */
export function planTotalRange(resolved: ResolvedRange, context: PlanContext): TotalPlan {
  const { zone, zoneName, ...range } = resolved;
  const isKept = keptAt(context);
  const read = clampToExtent(range, context.dataExtent, isKept);
  const meta = rangeMeta(range, zone, zoneName);
  const budget = blockBudget(meta, context.maxBlocks);
  // No block spans more than 31 days, so a longer interval is refused before it is covered.
  if (read !== null) budget.require(Math.ceil((read.endMs - read.startMs) / (31 * 86_400_000)));
  const blocks = budget.spend(read === null ? [] : coverSigned(read.startMs, read.endMs, isKept));
  return { range, zoneName, meta, blocks };
}

/**
 * Counts the blocks a plan reads and stops planning as soon as they pass `maxBlocks`, so that a
 * request too large to answer also costs little to refuse (docs/contract.md §2: a 400 naming the range).
 */
function blockBudget(meta: RangeMeta, maxBlocks = Number.POSITIVE_INFINITY) {
  let spent = 0;
  const require = (blocks: number) => {
    if (spent + blocks > maxBlocks) {
      throw new InvalidParameterError(
        "start_date",
        `the range ${meta.start_date}..${meta.end_date} needs more than ${maxBlocks} stored blocks: ` +
          "ask for a shorter range or a coarser granularity",
      );
    }
  };
  return {
    /** Refuses now when at least `blocks` more are certain to be needed. */
    require,
    spend<B extends readonly unknown[]>(blocks: B): B {
      require(blocks.length);
      spent += blocks.length;
      return blocks;
    },
  };
}
