// The bench is run as a script (`npm run bench`, see run.ts); this index exposes its pieces for
// anyone who wants to drive one phase from elsewhere.
export { type BenchDataset, buildBenchDataset, SHAPES, type Shape } from "./benchDataset";
export { buildDataset, type Dataset } from "./dataset";
export { renderReport } from "./report";
export type { BenchResults, SizeResult } from "./results";
export { runSize } from "./sizeRun";
export { checkTargets, type TargetCheck } from "./targets";
