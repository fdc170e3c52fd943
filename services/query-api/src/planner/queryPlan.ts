import type { Zone } from "luxon";
import { frameKey } from "./answerFrame";
import {
  type CoveredCut,
  type CutCache,
  type CutEntry,
  keptAt,
  keptState,
  type PlanContext,
  type SignedBlock,
  type TimeRange,
} from "./block";
import { cutBuckets, type OutputBucket } from "./bucketCutting";
import { clampToExtent, type DataExtent, mayHoldData } from "./dataExtent";
import {
  calendarUnitOf,
  DEFAULT_GRANULARITY,
  type StatsGranularity,
  type WeekStart,
  WHOLE_RANGE,
} from "./granularity";
import { formatInstant } from "./instantFormat";
import { InvalidParameterError } from "./invalidParameterError";
import { type RangeParams, type ResolvedRange, resolveRange } from "./rangeResolution";
import { snapBuckets } from "./retentionGrid";
import { coverSigned } from "./signedCover";

/** How `/stats` cuts its range into buckets. */
export interface Bucketing {
  /** `all` is the whole range as one bucket. */
  granularity: StatsGranularity;
  /** docs/contract.md §9: the day weeks start on; Monday (ISO) when absent. */
  weekStart?: WeekStart | undefined;
}

export interface StatsPlanParams extends RangeParams, Partial<Bucketing> {}

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
   * §7 `fill=zero`: every bucket appears), each its part of the range before any edge is moved
   * onto the stored grid. A bucket of `buckets` has the same label as one of these.
   */
  rangeBuckets: readonly OutputBucket[];
  /** What the answer is cut into, as a string (answerFrame.ts): the same for every plan of it. */
  frame: string;
}

export interface TotalPlan {
  range: TimeRange;
  zoneName: string;
  meta: RangeMeta;
  /** The range as a string (answerFrame.ts). */
  frame: string;
  /**
   * The blocks whose signed sum is exactly `range` (empty time outside the data extent is not
   * read). Shared with other plans through the cover cache: never modified.
   */
  blocks: readonly SignedBlock[];
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
  const bucketing = { granularity: params.granularity ?? DEFAULT_GRANULARITY, weekStart: params.weekStart };
  return planStatsRange(resolveRange(params, context), bucketing, context);
}

/** A resolved range cut into buckets, before any block is chosen. */
export interface RangeCut {
  /** Every bucket of the range with its label, its part of the range as cut in the zone. */
  rangeBuckets: readonly OutputBucket[];
  /** The same with their edges moved onto the stored grid (retentionGrid.ts), empty ones dropped. */
  snapped: readonly OutputBucket[];
  /** What the answer is cut into, as a string (answerFrame.ts). */
  frame: string;
}

/** The buckets of a resolved range, as `planStatsRange` cuts them; no block is covered. */
export function cutRange(resolved: ResolvedRange, bucketing: Bucketing, context: PlanContext): RangeCut {
  const { granularity, weekStart } = bucketing;
  if (granularity === WHOLE_RANGE) {
    const range = { startMs: resolved.startMs, endMs: resolved.endMs };
    // An empty range has no bucket, as it has none of any other size.
    const label = formatInstant(range.startMs, resolved.zone);
    const whole = range.endMs > range.startMs ? [{ label, ...range }] : [];
    return { rangeBuckets: whole, snapped: whole, frame: frameKey(resolved) };
  }
  return cutEntry(resolved, { granularity, weekStart }, context).cut;
}

/** A bucketing by calendar unit (not the whole range as one bucket). */
interface CalendarBucketing extends Bucketing {
  granularity: Exclude<StatsGranularity, typeof WHOLE_RANGE>;
}

/** The context's cut cache, when it was made for the context's retention. */
function cutsOf(context: PlanContext) {
  return context.cuts?.retention === context.retention ? context.cuts : undefined;
}

/** A range's cut from the cut cache, or cut now (and kept there, under `entry.key`). */
function cutEntry(resolved: ResolvedRange, bucketing: CalendarBucketing, context: PlanContext): CutEntry {
  const cuts = cutsOf(context);
  const key =
    cuts &&
    `${resolved.startMs}..${resolved.endMs}@${resolved.zoneName}/${bucketing.granularity}/` +
      `${bucketing.weekStart ?? ""}/${keptState(context)}`;
  const known = key === undefined ? undefined : cuts?.get(key);
  if (known !== undefined) return known;
  const range = { startMs: resolved.startMs, endMs: resolved.endMs };
  const unit = calendarUnitOf(bucketing.granularity, bucketing.weekStart);
  const rangeBuckets = cutBuckets(range, unit, resolved.zone);
  const snapped = snapBuckets(rangeBuckets, range, keptAt(context));
  const entry: CutEntry = {
    key: key ?? "",
    cut: { rangeBuckets, snapped, frame: frameKey(resolved, { rangeBuckets, snapped }) },
  };
  if (key !== undefined) cuts?.set(key, entry);
  return entry;
}

/** planQuery for a range already resolved (docs/contract.md §7 `compare`: the previous range). */
export function planStatsRange(
  resolved: ResolvedRange,
  bucketing: Bucketing,
  context: PlanContext,
): StatsPlan {
  const { granularity, weekStart } = bucketing;
  if (granularity === WHOLE_RANGE) return planWholeRange(resolved, context);
  const { zone, zoneName, ...range } = resolved;
  const meta = rangeMeta(range, zone, zoneName);
  const budget = blockBudget(meta, context.maxBlocks);
  const entry = cutEntry(resolved, { granularity, weekStart }, context);
  const { rangeBuckets, snapped, frame } = entry.cut;
  const cuts = cutsOf(context);
  const covered = cuts && coveredCut(entry, context, cuts);
  const cover = coverOf(context);
  const buckets = covered
    ? extentPart(covered, context.dataExtent)
    : snapped
        .filter((bucket) => mayHoldData(bucket, context.dataExtent))
        .map((bucket) => ({ ...bucket, blocks: budget.spend(cover(bucket.startMs, bucket.endMs)) }));
  return { range, zoneName, meta: { ...meta, granularity }, buckets, rangeBuckets, frame };
}

/**
 * Every snapped bucket of a kept cut with its cover, found once for whoever asks next; null when
 * they need more blocks than the context's budget (a plan then covers its extent's part alone, as
 * without the cache, so that a question too large is still refused early).
 */
function coveredCut(entry: CutEntry, context: PlanContext, cuts: CutCache): CoveredCut | null {
  const maxBlocks = context.maxBlocks ?? Number.POSITIVE_INFINITY;
  const known = entry.covered;
  if (known?.cover) return known.blocks <= maxBlocks ? known.cover : null;
  if (known && known.over >= maxBlocks) return null;
  const coverBlocks = coverOf(context);
  const buckets: CoveredCut["buckets"][number][] = [];
  let blocks = 0;
  for (const bucket of entry.cut.snapped) {
    const bucketBlocks = coverBlocks(bucket.startMs, bucket.endMs);
    blocks += bucketBlocks.length;
    if (blocks > maxBlocks) {
      entry.covered = { cover: null, over: maxBlocks };
      return null;
    }
    buckets.push({ ...bucket, blocks: bucketBlocks });
  }
  const cover = { buckets };
  entry.covered = { cover, blocks };
  // Kept again, to be weighed with its covers' blocks.
  cuts.set(entry.key, entry);
  return cover;
}

/**
 * The covered buckets that may hold data: sorted and disjoint, so those meeting the extent are one
 * run, found by two binary searches. Within the budget: all of them together are.
 */
function extentPart(covered: CoveredCut, extent: DataExtent): PlannedBucket[] {
  const { buckets } = covered;
  const from = extent === undefined ? 0 : firstIndex(buckets, (b) => b.endMs > extent.startMs);
  const to = extent === undefined ? buckets.length : firstIndex(buckets, (b) => b.startMs >= extent.endMs);
  return to <= from ? [] : buckets.slice(from, to);
}

/** The first index whose bucket passes `test`, which holds from some index on (buckets.length if none). */
function firstIndex<T>(buckets: readonly T[], test: (bucket: T) => boolean): number {
  let lo = 0;
  let hi = buckets.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (test(buckets[mid] as T)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/**
 * `granularity=all`: the whole range as one bucket, labelled with the range's start and covered as
 * the summary's interval is (so it reads only where the organization has data).
 */
function planWholeRange(resolved: ResolvedRange, context: PlanContext): StatsPlan {
  const { range, zoneName, meta, blocks, frame } = planTotalRange(resolved, context);
  // An empty range has no bucket, as it has none of any other size.
  const buckets = range.endMs > range.startMs ? [{ label: meta.start_date, ...range, blocks }] : [];
  const whole = { ...meta, granularity: WHOLE_RANGE } as const;
  return { range, zoneName, meta: whole, buckets, rangeBuckets: buckets, frame };
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
  const blocks = budget.spend(read === null ? [] : coverOf(context)(read.startMs, read.endMs));
  return { range, zoneName, meta, blocks, frame: frameKey(resolved) };
}

/**
 * The signed cover of an interval, from the context's cover cache when it was made for this
 * retention: a dashboard asks for the same intervals again and again, and the search is the
 * planner's main cost.
 */
function coverOf(context: PlanContext): (startMs: number, endMs: number) => readonly SignedBlock[] {
  const isKept = keptAt(context);
  const covers = context.covers?.retention === context.retention ? context.covers : undefined;
  return (startMs, endMs) =>
    covers
      ? covers.cover(startMs, endMs, isKept, () => coverSigned(startMs, endMs, isKept))
      : coverSigned(startMs, endMs, isKept);
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
