export {
  createUsageStatsClient,
  serializeQuery,
  type UsageStatsClient,
  type UsageStatsClientOptions,
} from "./createUsageStatsClient";
export type { components, operations, paths } from "./generated/schema";
export type {
  Dimensions,
  DimensionsQuery,
  Problem,
  StatsPage,
  StatsQuery,
  StatsRow,
  Summary,
  SummaryQuery,
} from "./schemaTypes";
