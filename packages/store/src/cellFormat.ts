// `@vu/store/cell-format`: how the store lays out what it keeps: a cell's packed sums, the fields
// of a block (quarter digits, combination ids, projection values), which container holds a block,
// the layout rule that places blocks, and a read's cells. Only the store decodes them; tests and
// tools that check stored bytes import them from here (no service does, so the built images have
// no copy of this entry). Everything
// else asks the store (`@vu/store`) for sums, never for cells: the
// query API's query/, planner/, render/ and routes/ import nothing of this file
// (infra/src/cellFormatBoundary.test.ts reads this list from here).
export { containerOf, LAYOUT_RULE } from "./format/blockPlacement";
export { PROJECTION_CODE, projectionField, projectionValue, TOTAL_FIELD } from "./format/projections";
export { ALL_QUARTERS, WHOLE_BLOCK } from "./format/quarterCells";
export { addSketchCell, SketchCounts, sketchKey, sketchPairs } from "./format/sketches";
export { addPacked, addPackedSlots, packSums, unpackSums } from "./format/sums";
export { snapshotCellsOf } from "./read/blockSnapshot";
export type { SnapshotCells } from "./read/bucketSums";
export {
  cellCount,
  cellField,
  cellSums,
  comboIdOf,
  fieldQuarter,
  fieldStart,
  projectionKeyOf,
  projectionValueOf,
  type StoredCell,
  type StoredCells,
  sumCells,
} from "./read/containerCells";
