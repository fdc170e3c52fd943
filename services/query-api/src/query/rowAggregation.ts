import { compareByteOrder, type Dimension } from "@vu/events";
import { addPacked, type BlockRef, type BlockSnapshot, emptySums, type Sums } from "@vu/store";
import { comboMatches, DIMENSION_INDEX, type DimensionFilter } from "./filters";

export interface PlannedBucket {
  label: string;
  startMs: number;
  blocks: readonly BlockRef[];
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
 * Sums the stored cells of each bucket's blocks into rows: filtered, then grouped. `snapshot.cells`
 * holds the blocks of all buckets in order. Each combination is classified once per query, so the
 * per-cell work is a map lookup and an add. Buckets without recordings give no row.
 */
export function aggregateRows(
  buckets: readonly PlannedBucket[],
  snapshot: BlockSnapshot,
  { filters, groupBy }: AggregateOptions,
): AggregatedRow[] {
  const classes = new Map<string, ComboClass>();
  const classify = (comboId: string): ComboClass => {
    let cls = classes.get(comboId);
    if (cls !== undefined) return cls;
    const values = snapshot.combos.get(comboId);
    if (values === undefined) throw new Error(`rollup cell refers to unknown combination ${comboId}`);
    cls = !comboMatches(values, filters) ? EXCLUDED : groupBy ? values[DIMENSION_INDEX[groupBy]] : "";
    classes.set(comboId, cls);
    return cls;
  };

  const rows: AggregatedRow[] = [];
  let blockIndex = 0;
  for (const bucket of buckets) {
    const groups = new Map<string | null, Sums>();
    for (let b = 0; b < bucket.blocks.length; b++) {
      const cells = snapshot.cells[blockIndex++] ?? [];
      for (let i = 0; i + 1 < cells.length; i += 2) {
        const cls = classify(cells[i] as string);
        if (cls === EXCLUDED) continue;
        let sums = groups.get(cls);
        if (sums === undefined) {
          sums = emptySums();
          groups.set(cls, sums);
        }
        addPacked(sums, cells[i + 1] as string);
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
