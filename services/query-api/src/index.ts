// What end-to-end tests and benchmarks need to run the API in-process.

export { STATS_METRIC_COLUMNS } from "@vu/api-responses";
export { LARGE_READ_NICE } from "./apiProcesses";
export { type ApiConfig, type ApiDeps, createApp } from "./app";
export { CACHE_LOOKUPS, type CacheLookup } from "./cache/resultCache";
export {
  createToken,
  type ResignDeps,
  type ResignResult,
  resignTokens,
  revokeToken,
  TOKEN_COMMANDS,
  type TokenCommandDeps,
  tokensCliEnvSchema,
  topicMessageReader,
  topicTokenFinder,
} from "./cli/tokenCommands";
export { type ApiEnv, apiEnvSchema, loadApiEnv } from "./env";
export { CACHE_LOOKUPS_METRIC, createHttpMetrics, type HttpMetrics } from "./http/httpMetrics";
export { createOpenApiDocument } from "./openapi/openApiDocument";
export { type ApiOpsDeps, createApiOpsServer } from "./opsServer";
export { toStatsRow } from "./query/rowMetrics";
