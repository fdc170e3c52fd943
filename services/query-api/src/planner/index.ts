export {
  type CoverCache,
  type IsKept,
  keptAt,
  keptState,
  type PlanContext,
  type SignedBlock,
  type TimeRange,
} from "./block";
export { coverInterval } from "./blockCover";
export { cutBuckets, MAX_BUCKETS, type OutputBucket } from "./bucketCutting";
export {
  COMPARE_KINDS,
  type CompareKind,
  type PreviousRange,
  pairBuckets,
  previousRange,
} from "./comparePeriod";
export { createCoverCache } from "./coverCache";
export { createCutCache } from "./cutCache";
export { clampToExtent, type DataExtent, mayHoldData } from "./dataExtent";
export { type DateParam, type DateParts, parseDateParam, type TimeParts } from "./dateParam";
export { coverWholeDays } from "./dayCover";
export {
  DEFAULT_GRANULARITY,
  GRANULARITIES,
  type Granularity,
  STATS_GRANULARITIES,
  type StatsGranularity,
  WEEK_STARTS,
  type WeekStart,
  WHOLE_RANGE,
} from "./granularity";
export { formatInstant } from "./instantFormat";
export { InvalidParameterError } from "./invalidParameterError";
export {
  cutRange,
  type PlannedBucket,
  planQuery,
  planStatsRange,
  planTotal,
  planTotalRange,
  type RangeMeta,
  type StatsPlan,
  type StatsPlanParams,
  type TotalPlan,
} from "./queryPlan";
export { DEFAULT_WINDOW_MS, type RangeParams, type ResolvedRange, resolveRange } from "./rangeResolution";
export {
  ceilToGrid,
  floorToGrid,
  type GridTier,
  gridAt,
  nearestOnGrid,
  snapBuckets,
} from "./retentionGrid";
export { coverSigned } from "./signedCover";
export { type QueryZone, resolveQueryZone, UTC_QUERY_ZONE } from "./timeZone";
