/** Which target a row checks: each has one bound in targetBounds.ts (correctness has none). */
export type TargetKind =
  | "engineSpeedup"
  | "rollupSpeedup"
  | "postgresSpeedup"
  | "zone"
  | "throughput"
  | "scaling"
  | "memory"
  | "ingestRate"
  | "ingest"
  | "ingestRedisCpu"
  | "ingestWorkerCpu"
  | "freshness"
  | "steadyIngest"
  | "steadyMemory"
  | "newOrgMemory"
  | "twoWorkers"
  | "tenantMemory"
  | "tenantIngest"
  | "storage"
  | "noisyP99"
  | "noisyRedisCommand"
  | "noisyPaging"
  | "tenantPostgres"
  | "tenantCached"
  | "hourlyApiCpu"
  | "cachedApiCpu"
  | "underIngestSlowdown"
  | "underIngestSmallP99"
  | "correctness";

/** One row of the report's target table (targets.ts, tenantTargets.ts, noisyReport.ts). */
export interface TargetCheck {
  kind: TargetKind;
  /**
   * The API's side of the row is the cached run: a repeated request answered from the result
   * cache, while PostgreSQL and the engines compute every answer.
   */
  cached?: boolean;
  area: string;
  target: string;
  measured: string;
  /**
   * The measured value relative to the target's threshold, in the target's direction; null when
   * the run did not measure it (a shape or an engine left out).
   */
  met: boolean | null;
}
