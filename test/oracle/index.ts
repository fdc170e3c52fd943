// The brute-force oracle: answers the three endpoints by scanning the counted recordings. Written
// from docs/contract.md §2 alone; it imports nothing from the query API.
export { compareCodePoints } from "./byteOrder";
export { formatIn, type QueryZone, queryZone, readDate, wallToInstant } from "./dates";
export { isOnKeptGrid, keptGridStep } from "./keptGrid";
export {
  type Approximate,
  nearestRankPercentile,
  PERCENTILE_BOUND,
  type Rounded,
  type RowMetric,
  round3,
  type Sums,
} from "./metrics";
export {
  CALENDAR_GRANULARITIES,
  DIMENSIONS,
  type Dimension,
  GRANULARITIES,
  type Granularity,
  type QueryPairs,
  SEED_GRANULARITIES,
} from "./params";
export { ExpectedBadRequest, type OracleRange, resolveRange } from "./range";
export { type CountedRecording, countRecordings, type StreamedMessage } from "./recordings";
export {
  type Answer,
  answerStats,
  type ExpectedRow,
  type ExpectedStats,
  type OracleOptions,
  type RowFields,
} from "./stats";
export { answerDimensions, answerSummary, type ExpectedDimensions, type ExpectedSummary } from "./summary";
