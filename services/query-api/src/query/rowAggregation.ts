import { compareByteOrder, type Dimension } from "@vu/events";
import {
  addPacked,
  type BlockRef,
  type BlockSnapshot,
  emptySums,
  projectionValue,
  type Sums,
} from "@vu/store";
import { comboMatches, DIMENSION_INDEX, type DimensionFilter } from "./filters";

export interface PlannedBucket {
  label: string;
  startMs: number;
  /** Each block's cells are added (+1) or subtracted (−1): a signed cover (planner/signedCover.ts). */
  blocks: ReadonlyArray<BlockRef & { sign: 1 | -1 }>;
}

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
 * Sums the stored cells of each bucket's blocks, with their signs, into rows: filtered, then
 * grouped. `snapshot.cells` holds the blocks of all buckets in order. A group whose count nets to
 * zero had no recordings in the bucket (the signed sums are exact) and gives no row.
 */
export function aggregateRows(
  buckets: readonly PlannedBucket[],
  snapshot: BlockSnapshot,
  options: AggregateOptions,
): AggregatedRow[] {
  const { groupBy } = options;
  const classifyOnce = createClassifier(snapshot, options);
  const classes = new Map<string, ComboClass>();
  const classify = (field: string): ComboClass => {
    let cls = classes.get(field);
    if (cls === undefined) {
      cls = classifyOnce(field);
      classes.set(field, cls);
    }
    return cls;
  };

  const rows: AggregatedRow[] = [];
  let blockIndex = 0;
  for (const bucket of buckets) {
    const groups = new Map<string | null, Sums>();
    for (const { sign } of bucket.blocks) {
      const cells = snapshot.cells[blockIndex++] ?? [];
      for (let i = 0; i + 1 < cells.length; i += 2) {
        const cls = classify(cells[i] as string);
        if (cls === EXCLUDED) continue;
        let sums = groups.get(cls);
        if (sums === undefined) {
          sums = emptySums();
          groups.set(cls, sums);
        }
        addPacked(sums, cells[i + 1] as Buffer, sign);
      }
    }
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
