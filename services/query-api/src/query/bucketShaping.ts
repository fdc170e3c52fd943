import type { Dimension } from "@vu/events";
import { mergeSketches } from "@vu/store";
import { InvalidParameterError } from "../planner";
import type { GroupValues } from "./groupTable";
import { unionOf } from "./rowMembers";
import { type Candidate, type SortKey, sortCandidates } from "./rowOrder";
import { type PreviousPart, type RowTable, RowTableBuilder, type TableBucket, WIDTH } from "./rowTable";

/** What a row of the rest reads in every group field (docs/contract.md §7 `other=true`). */
export const OTHER_GROUP = "(other)";
/**
 * The most rows `fill=zero` may make: zero rows are made, not read, so without a bound a long range
 * of hours grouped by many members would build millions of them. More is a 400 naming `fill`.
 */
export const MAX_FILLED_ROWS = 500_000;

/** docs/contract.md §7's shaping of a `/stats` answer; all absent (the seed's query): rows as aggregated. */
export interface ShapeOptions {
  /** Orders each bucket's rows; empty: the default order. */
  sort: readonly SortKey[];
  /** Keeps each bucket's first `limit` rows, once sorted. */
  limit?: number | undefined;
  /** With `limit`: one more row per bucket that lost rows, their exact sum, its group fields OTHER_GROUP. */
  other: boolean;
  /**
   * `fill=zero`: every one of these buckets (the range's, in order) appears: a zero row for each
   * group of the answer the bucket lacks (ungrouped: one zero row in an empty bucket).
   */
  fill?: readonly TableBucket[] | undefined;
  /**
   * docs/contract.md §7 `compare`: a row's previous sums, by its bucket's label and its group;
   * undefined where the paired bucket has no such group (zeros). The "(other)" row's are those of
   * the rows it folds, summed.
   */
  previous?: PreviousLookup | undefined;
}

/**
 * Where a row's previous sums are (WIDTH values from `at`) and, when counted, its members; or
 * undefined for none.
 */
export type PreviousLookup = (label: string, group: number) => PreviousPart | undefined;

const ZEROS = new Float64Array(WIDTH);
const NO_MEMBERS = new Int32Array(0);

/** The groups that have a row anywhere in the table (ungrouped: the one empty group, always). */
function groupsPresent(table: RowTable): number[] {
  if (table.dimensions.length === 0) return [table.groupValues.findIndex((g) => g.length === 0)];
  const present = new Set<number>();
  for (let i = 0; i < table.length; i++) present.add(table.groupOf[i] as number);
  return [...present].sort((a, b) => (table.ranks[a] as number) - (table.ranks[b] as number));
}

/** Refuses a fill that would make more than MAX_FILLED_ROWS rows, before making any. */
function checkFillSize(buckets: number, groups: number, options: ShapeOptions): void {
  const perBucket = Math.min(groups, options.limit ?? groups) + (options.other ? 1 : 0);
  if (buckets * perBucket > MAX_FILLED_ROWS) {
    throw new InvalidParameterError(
      "fill",
      `zero-filling ${buckets} buckets for ${groups} groups makes more than ${MAX_FILLED_ROWS} rows: ` +
        "ask for a shorter range, a coarser granularity, fewer groups or a limit",
    );
  }
}

/** One bucket's rows: filled, sorted, cut to the limit, the rest summed into one row. */
function shapeBucket(
  rows: Candidate[],
  table: RowTable,
  options: ShapeOptions,
  fillGroups: readonly number[],
): { kept: Candidate[]; rest: Float64Array | undefined; cut: Candidate[] } {
  let candidates = rows;
  if (options.fill) {
    const has = new Set(rows.map((r) => r.group));
    const zeros = fillGroups
      .filter((g) => !has.has(g))
      .map((group) => ({ group, sums: ZEROS, at: 0, members: NO_MEMBERS, sketch: undefined }));
    candidates = [...rows, ...zeros];
  }
  // Rows come in the default order; a fill's zero rows must join it, a sort reorders.
  if (options.sort.length > 0 || options.fill) candidates = sortCandidates(candidates, table, options.sort);
  if (options.limit === undefined || candidates.length <= options.limit)
    return { kept: candidates, rest: undefined, cut: [] };
  const kept = candidates.slice(0, options.limit);
  if (!options.other) return { kept, rest: undefined, cut: [] };
  const cut = candidates.slice(options.limit);
  return { kept, rest: sumOf(cut.map(({ sums, at }) => ({ values: sums, at }))), cut };
}

/** The exact sum of rows' sums (each WIDTH values from `at`). */
function sumOf(parts: ReadonlyArray<{ values: Float64Array; at: number } | undefined>): Float64Array {
  const total = new Float64Array(WIDTH);
  for (const part of parts) {
    if (part === undefined) continue;
    for (let k = 0; k < WIDTH; k++) total[k] = (total[k] as number) + (part.values[part.at + k] as number);
  }
  return total;
}

/**
 * The answer's rows after docs/contract.md §7's `fill`, `sort`, `limit` and `other`, in that order,
 * bucket by bucket: buckets stay in time order, and each is shaped on its own (top N per bucket).
 * The "(other)" row comes last in its bucket; its sums are the exact sum of the rows cut.
 * With `previous` (docs/contract.md §7 `compare`) each row carries its previous sums too. When the
 * table counts members (docs/contract.md §9), so do the rows: a zero row has none, the "(other)"
 * row has the members of the rows it folds, each once (in its previous bucket too); with
 * percentiles, the percentile sketch of the rows it folds.
 */
export function shapeRows(table: RowTable, options: ShapeOptions): RowTable {
  const shaping =
    options.sort.length > 0 ||
    options.limit !== undefined ||
    options.fill !== undefined ||
    options.previous !== undefined;
  if (!shaping) return table;
  const previous = options.previous;
  const buckets = options.fill ?? table.buckets;
  const fillGroups = options.fill ? groupsPresent(table) : [];
  if (options.fill) checkFillSize(buckets.length, fillGroups.length, options);
  const groupValues: GroupValues[] = [...table.groupValues];
  const otherGroup = groupValues.length;
  groupValues.push(table.dimensions.map(() => OTHER_GROUP));
  const ranks = Int32Array.from([...table.ranks, table.ranks.length]);

  const members = table.members;
  const sketches = table.sketches;
  const out = new RowTableBuilder({
    withPrevious: previous !== undefined,
    withMembers: members !== undefined,
    withSketches: sketches !== undefined,
  });
  let i = 0;
  buckets.forEach((bucket, b) => {
    const rows: Candidate[] = [];
    // The table's buckets are a subsequence of `buckets` (same labels, same order).
    while (i < table.length && table.buckets[table.bucketOf[i] as number]?.label === bucket.label) {
      rows.push({
        group: table.groupOf[i] as number,
        sums: table.sumsOf,
        at: WIDTH * i,
        members: members?.of(i),
        sketch: sketches?.[i],
      });
      i++;
    }
    const { kept, rest, cut } = shapeBucket(rows, table, options, fillGroups);
    const previousOf = (group: number) => previous?.(bucket.label, group);
    for (const row of kept)
      out.push(b, row.group, row.sums, row.at, {
        previous: previousOf(row.group),
        members: row.members,
        sketch: row.sketch,
      });
    if (rest) {
      const before = previous && cut.map((row) => previousOf(row.group));
      const restBefore = before && {
        values: sumOf(before),
        at: 0,
        members: members && unionOf(before.map((part) => part?.members)),
      };
      const restMembers = members && unionOf(cut.map((row) => row.members));
      // docs/contract.md §9 `percentiles`: the rows cut, counted together.
      const restSketch = sketches && mergeSketches(cut.map((row) => row.sketch));
      out.push(b, otherGroup, rest, 0, { previous: restBefore, members: restMembers, sketch: restSketch });
    }
  });
  if (i !== table.length) throw new Error("shapeRows: a row's bucket is not among the range's buckets");
  return out.buildAsPushed(buckets, groupValues, table.dimensions as readonly Dimension[], ranks);
}
