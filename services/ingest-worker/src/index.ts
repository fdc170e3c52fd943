// What end-to-end tests and benchmarks need to run the worker in-process.

export {
  createIngestWorker,
  type IngestWorker,
  type IngestWorkerConfig,
  type IngestWorkerDeps,
  WORKER_REDIS_OPTIONS,
} from "./app";
export { CHUNK_LIMITS, chunkEnd } from "./chunking";
export { loadWorkerEnv, type WorkerEnv, workerConfigFromEnv, workerEnvSchema } from "./env";
export { createIngestMetrics, type IngestMetrics, type IngestMetricsOptions } from "./metrics";
export { IncompleteTopicError, runRebuild } from "./rebuild";
export { createWorkerSupervisor, type WorkerSupervisor, type WorkerSupervisorOptions } from "./supervisor";
export { restoreTokens } from "./tokenRestore";
export { validateAndGroup } from "./validateAndGroup";
