export {
  type Dimensions,
  dimensionsSchema,
  type Problem,
  problemSchema,
  STATS_METRIC_COLUMNS,
  type StatsMetricColumn,
  type StatsPage,
  type StatsRow,
  type Summary,
  statsPageSchema,
  summarySchema,
} from "./responses";
