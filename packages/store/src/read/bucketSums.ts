import type { DimensionValues } from "@vu/events";
import type { Projection } from "../format/projections";
import { ALL_QUARTERS, WHOLE_BLOCK } from "../format/quarterCells";
import { type CellAccumulator, createCellAccumulator } from "./cellAccumulator";
import { cellCount, cellField, cellSums, fieldQuarter, fieldStart, type StoredCells } from "./containerCells";
import { type Classifier, createClassifier, EXCLUDED } from "./fieldClasses";
import { createPairFolding, MemberPairs } from "./memberPairs";
import { SketchAccumulator } from "./sketchAccumulator";
import type { BucketSumsSink, SummedBucket, SumsQuestion } from "./sumsQuestion";

/** The cells of one read (blockSnapshot.ts), per block asked for, in the order asked. */
export interface SnapshotCells {
  projection: Projection;
  /** Combination id → its values, for every id the cells can hold (combos projection, or any `comboCells`). */
  combos: ReadonlyMap<string, DimensionValues>;
  /**
   * One entry per requested block, in order: its cells in `projection`, from its key in that
   * projection (a tier placed `projected`; blockPlacement.ts). Blocks stored under the same key (the quarters of
   * one hour, or a block asked for twice) share one array, read once. A block of a derived tier
   * (derivedBlocks.ts) has the cells of its days, one list in which a field can repeat: summed.
   */
  cells: StoredCells[];
  /**
   * Per requested block, its cells kept without projections (in its container or its combinations key,
   * by its tier's placement now or before it moved): combination cells, fields as in the combos
   * projection, whatever `projection` is. A block's answer is the sum of both lists.
   */
  comboCells: StoredCells[];
  /**
   * Per requested block, which part of its cells it is (quarterCells.ts): WHOLE_BLOCK (fields
   * as they are), ALL_QUARTERS (a split hour: every field starts with its quarter's digit), or a
   * quarter 0-3 (only the fields starting with that digit).
   */
  parts: Int8Array;
  /**
   * Read with `ReadOptions.sketches`: the percentile sketches beside `cells` (in `projection`) and
   * `comboCells`, per requested block, a field's sketch under the field's name: classified as the
   * field's cell, so each group's sketch holds the recordings its sums hold.
   */
  sketches?: { cells: StoredCells[]; comboCells: StoredCells[] } | undefined;
}

/** Where a bucket's key uses come from: the cells, or the sketches beside them. */
type CellLists = Pick<SnapshotCells, "cells" | "comboCells">;

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
  bucket: SummedBucket,
  snapshot: SnapshotCells,
  lists: CellLists,
  firstIndex: number,
  classifiers: { projection: Classifier; combos: Classifier },
): KeyUse[] {
  const uses: KeyUse[] = [];
  const { blocks } = bucket;
  for (let j = 0; j < blocks.length; j++) {
    const { sign } = blocks[j] as SummedBucket["blocks"][number];
    const part = snapshot.parts[firstIndex + j] ?? WHOLE_BLOCK;
    // A block's cells may be in its key of the projection and in places without projections
    // (combinations).
    addUse(uses, lists.cells[firstIndex + j], classifiers.projection, part, sign);
    addUse(uses, lists.comboCells[firstIndex + j], classifiers.combos, part, sign);
  }
  return uses;
}

/** Adds a block's part of one key to a bucket's uses, merged with an earlier use of the same key. */
function addUse(
  uses: KeyUse[],
  cells: StoredCells | undefined,
  classify: Classifier,
  part: number,
  sign: number,
): void {
  if (cells === undefined || cellCount(cells) === 0) return;
  let use: KeyUse | undefined;
  for (const u of uses) if (u.cells === cells) use = u;
  if (use === undefined) {
    use = { cells, classify, split: part !== WHOLE_BLOCK, whole: 0, quarters: [0, 0, 0, 0] };
    uses.push(use);
  }
  const quarters = use.quarters;
  if (part === WHOLE_BLOCK) use.whole += sign;
  else if (part === ALL_QUARTERS) for (let q = 0; q < 4; q++) quarters[q] = (quarters[q] ?? 0) + sign;
  else quarters[part] = (quarters[part] ?? 0) + sign;
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

/** Adds one sketch key's cells [from, to), with their signs, into the groups' sketches. */
function addSketches(
  use: KeyUse,
  into: SketchAccumulator,
  pairs: MemberPairs | undefined,
  from: number,
  to: number,
): void {
  const { cells, classify, split, whole, quarters } = use;
  const start = fieldStart(split);
  for (let i = from; i < to; i++) {
    const field = cellField(cells, i);
    const sign = split ? (quarters[fieldQuarter(field)] as number) : whole;
    if (sign === 0) continue;
    const cls = classify(field, start);
    // Counting members, a field's class is its (group, member) pair: its sketch is its group's.
    if (cls !== EXCLUDED) into.add(pairs ? (pairs.groupOf[cls] as number) : cls, cellSums(cells, i), sign);
  }
}

/** Cells summed between two steps (a caller may pause between them). */
const CELLS_PER_STEP = 8_192;

/**
 * Sums the stored cells of each bucket's blocks, with their signs, into `into`: filtered, then
 * per group. `snapshot.cells` holds the blocks of all buckets in order. A group whose count nets
 * to zero had no recordings in the bucket (the signed sums are exact) and is not handed over.
 * Cells are summed in a numeric array per bucket, one slot per group (cellAccumulator.ts): no
 * object per cell.
 *
 * In steps of at most CELLS_PER_STEP cells: summing a large answer (100,000 groups) is hundreds
 * of milliseconds of the process' only thread, so the caller may give other work a turn between
 * steps. The cells are read already and never change, so pausing changes no sum.
 */
export function* sumBuckets(
  snapshot: SnapshotCells,
  question: SumsQuestion,
  into: BucketSumsSink,
): Generator<void, void, void> {
  // Counting members, cells are summed per (group, member) pair, folded into groups per bucket.
  const pairs = question.activeMembers ? new MemberPairs() : undefined;
  const classifiers = {
    projection: createClassifier(snapshot.projection, snapshot.combos, question, pairs),
    combos: createClassifier("combos", snapshot.combos, question, pairs),
  };
  const accumulator = createCellAccumulator();
  // docs/contract.md §9 `percentiles`: each group's sketch, from the sketches beside its cells.
  const sketchLists = question.percentiles ? snapshot.sketches : undefined;
  if (question.percentiles && !sketchLists) throw new Error("percentiles asked of a read without sketches");
  const sketches = sketchLists && new SketchAccumulator();
  const fold = pairs && createPairFolding(pairs, sketches);
  const { buckets } = question;
  let blockIndex = question.firstBlock;
  for (let b = 0; b < buckets.length; b++) {
    const bucket = buckets[b] as SummedBucket;
    for (const use of keyUses(bucket, snapshot, snapshot, blockIndex, classifiers)) {
      const count = cellCount(use.cells);
      for (let from = 0; from < count; from += CELLS_PER_STEP) {
        addKey(use, accumulator, from, Math.min(count, from + CELLS_PER_STEP));
        yield;
      }
    }
    if (sketches && sketchLists) {
      for (const use of keyUses(bucket, snapshot, sketchLists, blockIndex, classifiers)) {
        const count = cellCount(use.cells);
        for (let from = 0; from < count; from += CELLS_PER_STEP) {
          addSketches(use, sketches, pairs, from, Math.min(count, from + CELLS_PER_STEP));
          yield;
        }
      }
    }
    blockIndex += bucket.blocks.length;
    if (fold) fold(accumulator, into, b);
    else if (sketches)
      accumulator.drain((group, sums, at) => into.push(b, group, sums, at, { sketch: sketches.take(group) }));
    else accumulator.drainInto(into, b);
    sketches?.clear();
  }
}
