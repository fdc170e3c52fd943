import type { Dimension } from "@vu/events";
import type { BlockSnapshot, DimensionTest } from "@vu/store";
import type { PlannedBucket } from "../planner";
import { type DimensionFilter, valuePasses } from "./filters";
import { GroupTable } from "./groupTable";
import { type RowTable, RowTableBuilder } from "./rowTable";

/** What aggregation needs of a planned bucket (a summary's one interval has no end of its own). */
export type AggregatedBucket = Pick<PlannedBucket, "label" | "startMs" | "blocks">;

export interface AggregateOptions {
  filters: readonly DimensionFilter[];
  /** The dimensions to group by, in the order asked (docs/contract.md §7); none: one row per bucket. */
  groupBy?: readonly Dimension[];
  /**
   * Where the buckets' blocks start in the snapshot: a read may hold the blocks of two plans
   * (docs/contract.md §7 `compare`: the range's, then the previous range's).
   */
  firstBlock?: number;
  /**
   * docs/contract.md §9 `include=active_members`: each row's members too. Needs a snapshot whose
   * cells name their member (statsQuery.ts reads it as if grouped by member).
   */
  activeMembers?: boolean;
  /**
   * docs/contract.md §9 `percentiles`: each row's percentile sketch too. Needs a snapshot read with
   * its sketches (statsQuery.ts reads the combinations with them).
   */
  percentiles?: boolean;
}

/** When a long aggregation gives the event loop a turn (tests make it deterministic). */
export interface Turns {
  /** Whether the aggregation has run long enough since its last pause. */
  due(): boolean;
  pause(): Promise<void>;
}

/**
 * Pauses for a long aggregation only: none in its first `firstAfterMs` (an ordinary answer sums in
 * less and pays nothing for turns), then one after every `everyMs` of summing, so other requests'
 * work runs in between.
 */
export function timedTurns({ firstAfterMs = 5, everyMs = 1 } = {}): Turns {
  let next = performance.now() + firstAfterMs;
  return {
    due: () => performance.now() >= next,
    pause: () =>
      new Promise<void>((resolve) =>
        setImmediate(() => {
          next = performance.now() + everyMs;
          resolve();
        }),
      ),
  };
}

/** A filter as the store applies it: whether one value passes (filters.ts decides). */
const testOf = (filter: DimensionFilter): DimensionTest => ({
  dimension: filter.dimension,
  passes: (value) => valuePasses(filter, value),
});

/**
 * The rows of each bucket, filtered, then grouped: the store sums the snapshot's cells per
 * (bucket, group) (`BlockSnapshot.sumBuckets`), this names the groups (GroupTable, numbered as
 * the store first meets them) and keeps the sums in numeric arrays (RowTable): no object per cell
 * or per row. A group whose count nets to zero had no recordings in the bucket and gives no row.
 *
 * In turns: summing a large answer (100,000 groups) is hundreds of milliseconds of this process'
 * only thread, and every other request would wait behind it, so it pauses between the store's
 * steps whenever `turns` says so. The snapshot is read already and never changes, so pausing
 * changes no sum.
 */
export async function aggregateRowsInTurns(
  buckets: readonly AggregatedBucket[],
  snapshot: BlockSnapshot,
  options: AggregateOptions,
  turns: Turns = timedTurns(),
): Promise<RowTable> {
  const groupBy = options.groupBy ?? [];
  const activeMembers = options.activeMembers ?? false;
  const groups = new GroupTable();
  const percentiles = options.percentiles ?? false;
  const rows = new RowTableBuilder({ withMembers: activeMembers, withSketches: percentiles });
  const question = {
    buckets,
    firstBlock: options.firstBlock ?? 0,
    filters: options.filters.map(testOf),
    groupBy,
    groupOf: (values: readonly (string | null)[]) => groups.indexOf(values),
    activeMembers,
    percentiles,
  };
  const steps = snapshot.sumBuckets(question, rows);
  while (!steps.next().done) if (turns.due()) await turns.pause();
  // Groups are ranked once for the whole query, so rows sort by an integer, not by their text.
  return rows.build(buckets, groups.values, groupBy, groups.ranks());
}
