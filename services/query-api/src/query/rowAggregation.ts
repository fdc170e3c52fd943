import { compareByteOrder, DIMENSION_INDEX, type Dimension } from "@vu/events";
import {
  ALL_QUARTERS,
  addPacked,
  type BlockSnapshot,
  emptySums,
  projectionValue,
  type StoredCells,
  type Sums,
  WHOLE_BLOCK,
} from "@vu/store";
import type { PlannedBucket } from "../planner";
import { comboMatches, type DimensionFilter } from "./filters";

/** What aggregation needs of a planned bucket (a summary's one interval has no end of its own). */
export type AggregatedBucket = Pick<PlannedBucket, "label" | "startMs" | "blocks">;

export interface AggregatedRow {
  label: string;
  startMs: number;
  /** Present when grouped: the dimension's value, `null` for "no language model". */
  group?: string | null;
  sums: Sums;
}

export interface AggregateOptions {
  filters: readonly DimensionFilter[];
  groupBy?: Dimension;
}

const EXCLUDED = Symbol("excluded");
type ComboClass = string | null | typeof EXCLUDED;

/** Ascending byte order with `null` last (CONTRACT §2 "Rows"). */
export function compareGroups(a: string | null | undefined, b: string | null | undefined): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return 1;
  if (b === null || b === undefined) return -1;
  return compareByteOrder(a, b);
}

/**
 * How a stored field counts for the query: excluded by a filter, or the group it adds to ("" when
 * not grouped). Decided once per distinct field, so the per-cell work is a map lookup and an add.
 */
function createClassifier(
  snapshot: BlockSnapshot,
  { filters, groupBy }: AggregateOptions,
): (field: string) => ComboClass {
  const view = snapshot.view;
  if (view === "total") return () => "";
  if (view !== "combos") {
    // A projection answers only queries that filter and group on its own dimension.
    const foreign = filters.find((f) => f.dimension !== view);
    if (foreign || (groupBy && groupBy !== view))
      throw new Error(`the ${view} view cannot answer this query`);
    const [filter] = filters;
    return (field) => {
      const value = projectionValue(field);
      if (filter && !(value === null ? filter.matchesNull : filter.values.has(value))) return EXCLUDED;
      return groupBy ? value : "";
    };
  }
  return (comboId) => {
    const values = snapshot.combos.get(comboId);
    if (values === undefined) throw new Error(`rollup cell refers to unknown combination ${comboId}`);
    if (!comboMatches(values, filters)) return EXCLUDED;
    return groupBy ? values[DIMENSION_INDEX[groupBy]] : "";
  };
}

/**
 * One stored key's cells as a bucket uses them: the net sign of the whole block, or for a split
 * hour block (fields led by their quarter's digit) the net sign of each quarter. A bucket's
 * references to one key are merged so its cells are walked once, and parts that cancel are skipped.
 */
interface KeyUse {
  cells: StoredCells;
  split: boolean;
  whole: number;
  quarters: [number, number, number, number];
}

function keyUses(bucket: AggregatedBucket, snapshot: BlockSnapshot, firstIndex: number): KeyUse[] {
  const uses: KeyUse[] = [];
  bucket.blocks.forEach(({ sign }, j) => {
    const cells = snapshot.cells[firstIndex + j] ?? [];
    const part = snapshot.parts[firstIndex + j] ?? WHOLE_BLOCK;
    let use = uses.find((u) => u.cells === cells);
    if (use === undefined) {
      use = { cells, split: part !== WHOLE_BLOCK, whole: 0, quarters: [0, 0, 0, 0] };
      uses.push(use);
    }
    const quarters = use.quarters;
    if (part === WHOLE_BLOCK) use.whole += sign;
    else if (part === ALL_QUARTERS) for (let q = 0; q < 4; q++) quarters[q] = (quarters[q] ?? 0) + sign;
    else quarters[part] = (quarters[part] ?? 0) + sign;
  });
  return uses;
}

/** The sign of a split hour field's quarter; a field without its quarter digit is refused, not dropped. */
function quarterSign(quarters: KeyUse["quarters"], field: string): number {
  const q = field.charCodeAt(0) - 48;
  if (!(q >= 0 && q <= 3)) throw new Error(`hour block field ${JSON.stringify(field)} has no quarter digit`);
  return quarters[q] ?? 0;
}

/**
 * Sums the stored cells of each bucket's blocks, with their signs, into rows: filtered, then
 * grouped. `snapshot.cells` holds the blocks of all buckets in order. A group whose count nets to
 * zero had no recordings in the bucket (the signed sums are exact) and gives no row.
 */
export function aggregateRows(
  buckets: readonly AggregatedBucket[],
  snapshot: BlockSnapshot,
  options: AggregateOptions,
): AggregatedRow[] {
  const { groupBy } = options;
  const classifyOnce = createClassifier(snapshot, options);
  // Keyed by the stored field, one cache per form: "12" is combination 12 in a day block but
  // combination 2 in quarter 1 of a split hour, classified without its quarter digit.
  const wholeClasses = new Map<string, ComboClass>();
  const splitClasses = new Map<string, ComboClass>();
  const classify = (field: string, split: boolean): ComboClass => {
    const classes = split ? splitClasses : wholeClasses;
    let cls = classes.get(field);
    if (cls === undefined) {
      cls = classifyOnce(split ? field.slice(1) : field);
      classes.set(field, cls);
    }
    return cls;
  };

  const rows: AggregatedRow[] = [];
  let blockIndex = 0;
  for (const bucket of buckets) {
    const groups = new Map<string | null, Sums>();
    for (const { cells, split, whole, quarters } of keyUses(bucket, snapshot, blockIndex)) {
      for (let i = 0; i + 1 < cells.length; i += 2) {
        const field = cells[i] as string;
        const sign = split ? quarterSign(quarters, field) : whole;
        if (sign === 0) continue;
        const cls = classify(field, split);
        if (cls === EXCLUDED) continue;
        let sums = groups.get(cls);
        if (sums === undefined) {
          sums = emptySums();
          groups.set(cls, sums);
        }
        addPacked(sums, cells[i + 1] as Buffer, sign);
      }
    }
    blockIndex += bucket.blocks.length;
    const bucketRows = [...groups]
      .filter(([, sums]) => sums.count > 0)
      .map(([group, sums]): AggregatedRow => {
        const row: AggregatedRow = { label: bucket.label, startMs: bucket.startMs, sums };
        if (groupBy) row.group = group;
        return row;
      });
    bucketRows.sort((x, y) => compareGroups(x.group, y.group));
    rows.push(...bucketRows);
  }
  return rows;
}
