import type { Dimension } from "@vu/events";
import type { PercentileSketch } from "../format/sketches";

/**
 * What a query asks of a snapshot's cells (BlockSnapshot.sumBuckets): its buckets as signed lists
 * of the blocks read, its filters and groups, and whether members are counted. The answer is sums
 * per (bucket, group), in SUM_FIELDS order; the query names, orders and renders them.
 */
export interface SumsQuestion {
  /** Each bucket's blocks, in the order they were read; a sign -1 subtracts its block (a cover). */
  buckets: readonly SummedBucket[];
  /** Where the buckets' blocks start among the blocks read (one read may hold two plans' blocks). */
  firstBlock: number;
  /** Every one must pass (AND). */
  filters: readonly DimensionTest[];
  /** The dimensions to group by, in the order asked; none: one group per bucket. */
  groupBy: readonly Dimension[];
  /**
   * The caller's number for the group of recordings with these values (one per `groupBy`
   * dimension, null: no language model; [] when not grouped). Asked once per distinct stored
   * field, never per cell; the ungrouped group ([]) is always asked first, before any cell.
   */
  groupOf(values: readonly (string | null)[]): number;
  /** Also give each (bucket, group) the members with recordings in it (docs/contract.md §9). */
  activeMembers: boolean;
  /**
   * Also give each (bucket, group) its percentile sketch (docs/contract.md §9 `percentiles`): needs
   * a snapshot read with `ReadOptions.sketches`.
   */
  percentiles?: boolean;
}

export interface SummedBucket {
  readonly blocks: ReadonlyArray<{ readonly sign: number }>;
}

/** One filter on one dimension: whether a value passes it (null: no language model). */
export interface DimensionTest {
  readonly dimension: Dimension;
  passes(value: string | null): boolean;
}

/** Where the sums go, one call per (bucket, group) with recordings (a count above zero). */
export interface BucketSumsSink {
  /**
   * `bucket`'s sums for `group`: the seven values (SUM_FIELDS order) from `at` in `sums`, valid
   * during the call only. Counting members, `extras.members` are the ids of the members with
   * recordings in it: numbers this question gives its members, one per member. With
   * `percentiles`, `extras.sketch` is its recordings' percentile sketch (the caller's to keep).
   */
  push(
    bucket: number,
    group: number,
    sums: Float64Array,
    at: number,
    extras?: { members?: ArrayLike<number> | undefined; sketch?: PercentileSketch | undefined },
  ): void;
}
