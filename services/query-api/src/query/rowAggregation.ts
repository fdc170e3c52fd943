import { DIMENSION_INDEX, type Dimension } from "@vu/events";
import {
  ALL_QUARTERS,
  type BlockSnapshot,
  cellCount,
  cellField,
  cellSums,
  comboIdOf,
  fieldQuarter,
  fieldStart,
  projectionKeyOf,
  projectionValueOf,
  type StoredCells,
  type View,
  WHOLE_BLOCK,
} from "@vu/store";
import type { PlannedBucket } from "../planner";
import { type CellAccumulator, createCellAccumulator } from "./cellAccumulator";
import { comboMatches, type DimensionFilter, valuePasses } from "./filters";
import { GroupTable } from "./groupTable";
import { createPairFolding, MemberPairs } from "./memberPairs";
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
   * docs/contract.md §9 `include=active_members`: each row's members too (memberPairs.ts). Needs
   * cells that name their member: the combinations view or the members' projection.
   */
  activeMembers?: boolean;
}

/** The class of a stored field whose field proper starts at `from` (see createClassifier). */
type Classifier = (field: Buffer, from: number) => number;

/**
 * A field's class: the index of the slot it adds to (its group, or counting members its (group,
 * member) pair), or EXCLUDED by a filter.
 */
const EXCLUDED = -1;
const UNKNOWN = -2;

/** Where the groups and, when counting members, the pairs are numbered. */
interface Slots {
  groups: GroupTable;
  pairs?: MemberPairs | undefined;
}

/**
 * How each stored field counts for the query: excluded by a filter, or the slot it adds to.
 * Decided once per distinct field, so the per-cell work is an array or map lookup and seven adds.
 * The store reads the fields (combination ids; projection fields by a key that needs no decoding,
 * decoded only the first time they are seen): this file never parses a field's bytes.
 */
function createClassifier(
  view: View,
  combos: BlockSnapshot["combos"],
  { filters, groupBy = [] }: AggregateOptions,
  { groups, pairs }: Slots,
) {
  if (view !== "combos" && view !== "total") {
    // A projection answers only queries that filter and group on its own dimension.
    const foreign = filters.find((f) => f.dimension !== view);
    if (foreign || groupBy.some((d) => d !== view))
      throw new Error(`the ${view} view cannot answer this query`);
  }
  // Only cells that name their member can be counted by member.
  if (pairs && view !== "combos" && view !== "member_email")
    throw new Error(`the ${view} view cannot count members`);
  const ungrouped = groups.indexOf([]);
  const slotOf = (group: number, member: string) => (pairs ? pairs.indexOf(group, member) : group);
  const byName = new Map<string, number>();
  const classifyValue = (projected: string | null): number => {
    if (view === "total") return ungrouped;
    if (!filters.every((filter) => valuePasses(filter, projected))) return EXCLUDED;
    const group = groupBy.length > 0 ? groups.indexOf([projected]) : ungrouped;
    // The members' projection: the value is the member.
    return slotOf(group, projected ?? "");
  };
  const groupIndexes = groupBy.map((d) => DIMENSION_INDEX[d]);
  const memberIndex = DIMENSION_INDEX.member_email;
  let byCombo = new Int32Array(256).fill(UNKNOWN);
  const classifyCombo = (id: number): number => {
    const values = combos.get(String(id));
    if (values === undefined) throw new Error(`rollup cell refers to unknown combination ${id}`);
    if (!comboMatches(values, filters)) return EXCLUDED;
    const group = groupBy.length > 0 ? groups.indexOf(groupIndexes.map((i) => values[i] ?? null)) : ungrouped;
    return slotOf(group, values[memberIndex] as string);
  };

  /** The class of the field in bytes [from, end) of `field`. */
  return (field: Buffer, from: number): number => {
    if (view !== "combos") {
      const name = projectionKeyOf(field, from);
      let cls = byName.get(name);
      if (cls === undefined) {
        cls = classifyValue(projectionValueOf(field, from));
        byName.set(name, cls);
      }
      return cls;
    }
    const id = comboIdOf(field, from);
    if (id >= byCombo.length) {
      const grown = new Int32Array(Math.max(id + 1, 2 * byCombo.length)).fill(UNKNOWN);
      grown.set(byCombo);
      byCombo = grown;
    }
    let cls = byCombo[id] as number;
    if (cls === UNKNOWN) {
      cls = classifyCombo(id);
      byCombo[id] = cls;
    }
    return cls;
  };
}

/**
 * One stored key's cells as a bucket uses them: the net sign of the whole block, or for a split
 * hour block (fields led by their quarter's digit) the net sign of each quarter. A bucket's
 * references to one key are merged so its cells are walked once, and parts that cancel are skipped.
 */
interface KeyUse {
  cells: StoredCells;
  classify: Classifier;
  split: boolean;
  whole: number;
  quarters: [number, number, number, number];
}

function keyUses(
  bucket: AggregatedBucket,
  snapshot: BlockSnapshot,
  firstIndex: number,
  classifiers: { view: Classifier; combos: Classifier },
): KeyUse[] {
  const uses: KeyUse[] = [];
  const addUse = (cells: StoredCells, classify: Classifier, part: number, sign: number) => {
    if (cellCount(cells) === 0) return;
    let use = uses.find((u) => u.cells === cells);
    if (use === undefined) {
      use = { cells, classify, split: part !== WHOLE_BLOCK, whole: 0, quarters: [0, 0, 0, 0] };
      uses.push(use);
    }
    const quarters = use.quarters;
    if (part === WHOLE_BLOCK) use.whole += sign;
    else if (part === ALL_QUARTERS) for (let q = 0; q < 4; q++) quarters[q] = (quarters[q] ?? 0) + sign;
    else quarters[part] = (quarters[part] ?? 0) + sign;
  };
  bucket.blocks.forEach(({ sign }, j) => {
    const part = snapshot.parts[firstIndex + j] ?? WHOLE_BLOCK;
    // A block's cells may be in its key of the view and in places without views (combinations).
    addUse(snapshot.cells[firstIndex + j] ?? [], classifiers.view, part, sign);
    addUse(snapshot.comboCells[firstIndex + j] ?? [], classifiers.combos, part, sign);
  });
  return uses;
}

/** Adds one key's cells [from, to), with their signs. */
function addKey(use: KeyUse, into: CellAccumulator, from: number, to: number): void {
  const { cells, classify, split, whole, quarters } = use;
  const start = fieldStart(split);
  for (let i = from; i < to; i++) {
    const field = cellField(cells, i);
    const sign = split ? (quarters[fieldQuarter(field)] as number) : whole;
    if (sign === 0) continue;
    const cls = classify(field, start);
    if (cls !== EXCLUDED) into.add(cls, cellSums(cells, i), sign);
  }
}

/** Cells summed between two chances to pause (see aggregateRowsInTurns). */
const CELLS_PER_STEP = 8_192;

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

/**
 * Sums the stored cells of each bucket's blocks, with their signs, into rows: filtered, then
 * grouped. `snapshot.cells` holds the blocks of all buckets in order. A group whose count nets to
 * zero had no recordings in the bucket (the signed sums are exact) and gives no row. Cells are
 * summed in a numeric array per bucket, one slot per group, and rows are kept in numeric arrays
 * (RowTable): no object per cell or per row.
 *
 * In turns: summing a large answer (100,000 groups) is hundreds of milliseconds of this process'
 * only thread, and every other request would wait behind it, so it pauses whenever `turns` says
 * so. The snapshot is read already and never changes, so pausing changes no sum.
 */
export async function aggregateRowsInTurns(
  buckets: readonly AggregatedBucket[],
  snapshot: BlockSnapshot,
  options: AggregateOptions,
  turns: Turns = timedTurns(),
): Promise<RowTable> {
  const steps = aggregationSteps(buckets, snapshot, options);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    if (turns.due()) await turns.pause();
  }
}

/** The aggregation, stepping after each slice of at most CELLS_PER_STEP cells. */
function* aggregationSteps(
  buckets: readonly AggregatedBucket[],
  snapshot: BlockSnapshot,
  options: AggregateOptions,
): Generator<void, RowTable, void> {
  const groups = new GroupTable();
  // Counting members, cells are summed per (group, member) pair, folded into rows per bucket.
  const pairs = options.activeMembers ? new MemberPairs() : undefined;
  const slots = { groups, pairs };
  const classifiers = {
    view: createClassifier(snapshot.view, snapshot.combos, options, slots),
    combos: createClassifier("combos", snapshot.combos, options, slots),
  };
  const accumulator = createCellAccumulator();
  const rows = new RowTableBuilder({ withMembers: pairs !== undefined });
  const fold = pairs && createPairFolding(pairs);
  let blockIndex = options.firstBlock ?? 0;
  for (let b = 0; b < buckets.length; b++) {
    const bucket = buckets[b] as AggregatedBucket;
    for (const use of keyUses(bucket, snapshot, blockIndex, classifiers)) {
      const count = cellCount(use.cells);
      for (let from = 0; from < count; from += CELLS_PER_STEP) {
        addKey(use, accumulator, from, Math.min(count, from + CELLS_PER_STEP));
        yield;
      }
    }
    blockIndex += bucket.blocks.length;
    if (fold) fold(accumulator, rows, b);
    else accumulator.drainInto(rows, b);
  }
  // Groups are ranked once for the whole query, so rows sort by an integer, not by their text.
  return rows.build(buckets, groups.values, options.groupBy ?? [], groups.ranks());
}
