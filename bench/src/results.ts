import type { EngineResult } from "./engineBench";
import type { FreshnessResult } from "./freshness";
import type { BareResult, RateMeasurement, WorkerMetrics } from "./ingestBench";
import type { ProduceResult } from "./kafkaTopics";
import type { MachineInfo } from "./machine";
import type { PostgresLoad } from "./postgresLoad";
import type { CpuWindow } from "./processCpu";
import type { ProfileEntry } from "./profileSummary";
import type { ApiRun, QueryResult, RequestCost } from "./queryBench";
import type { MemoryBreakdown } from "./redisMemory";
import type { ThroughputResult } from "./throughputBench";

export interface IngestResult {
  bare: BareResult;
  worker: {
    rate: RateMeasurement;
    metrics: WorkerMetrics;
    cpu: CpuWindow;
    redisCommands: Array<{ command: string; calls: number; usec: number }>;
    /** Top self-time functions of the worker, when run with --profile. */
    profile?: ProfileEntry[];
  };
  /** Worker events/s ÷ bare consumer events/s. */
  ratio: number;
}

export interface MemoryResult extends MemoryBreakdown {
  perMillion: { total: number; seen: number; rollups: number };
}

export interface SizeResult {
  size: number;
  totalEvents: number;
  from: string;
  to: string;
  produce: ProduceResult;
  postgres: PostgresLoad;
  ingest: IngestResult;
  memory: MemoryResult;
  queries: QueryResult[];
  /** DuckDB and ClickHouse (in process) on the same raw events; empty with --skip-engines. */
  engines: EngineResult[];
  throughput: ThroughputResult[];
  /** 1-minute load average at phase ends: above the core count, other work competed for the CPU. */
  loadAverage: Record<string, number>;
  /** Top self-time functions of the query API over all query runs, when run with --profile. */
  apiProfile?: ProfileEntry[];
  freshness: FreshnessResult;
}

export interface BenchResults {
  runId: string;
  /** The product code measured: the commit, marked dirty when packages/ or services/ had changes. */
  commit: string;
  startedAt: string;
  finishedAt: string;
  redis: string;
  connections: number;
  queryDurationS: number;
  throughputConnections: number;
  throughputDurationS: number;
  machine: MachineInfo;
  sizes: SizeResult[];
}

/** One way the API was asked a query: repeated (served from the result cache) or with `no-cache`. */
export interface ApiVariant {
  name: "cached" | "computed";
  run: ApiRun;
  cost: RequestCost;
  /** PostgreSQL p50 ÷ this variant's p50. */
  speedupP50: number;
  /** The same asked by one client alone (single stream, as the engines are timed), if measured. */
  single?: ApiRun;
}

/**
 * The variants a query result holds: always the cached run; the computed one only in results
 * written since the bench measures both (older results.json files lack it).
 */
export function apiVariants(q: QueryResult): ApiVariant[] {
  const variants: ApiVariant[] = [
    { name: "cached", run: q.api, cost: q.cost, speedupP50: q.speedupP50, single: q.singleStream?.cached },
  ];
  if (q.computed && q.computedCost)
    variants.push({
      name: "computed",
      run: q.computed,
      cost: q.computedCost,
      speedupP50: q.computedSpeedupP50 ?? q.postgres.p50 / q.computed.p50,
      single: q.singleStream?.computed,
    });
  return variants;
}

/** A query's variant by name, if the results hold it. */
export function apiVariant(q: QueryResult, name: ApiVariant["name"]): ApiVariant | undefined {
  return apiVariants(q).find((v) => v.name === name);
}
