import type { Shape } from "./benchDataset";
import type { AskedOrganization } from "./dashboardQueries";
import type { EngineResult } from "./engineBench";
import { PEER_NAMES } from "./engines/peerEngine";
import type { FreshnessResult } from "./freshness";
import type { BareResult, RateMeasurement, WorkerMetrics } from "./ingestBench";
import type { ProduceResult } from "./kafkaTopics";
import type { MachineInfo } from "./machine";
import type { NoisyNeighbourResult } from "./noisyNeighbour";
import type { PostgresLoad } from "./postgresLoad";
import type { CpuWindow } from "./processCpu";
import type { ProfileEntry } from "./profileSummary";
import type { ApiRun, QueryResult, RequestCost } from "./queryBench";
import type { BytesPerEvent, MemoryBreakdown } from "./redisMemory";
import type { NewOrganizationProbe, SteadyPassResult } from "./steadyPass";
import type { ThroughputResult } from "./throughputBench";
import type { TwoWorkerResult } from "./twoWorkers";
import type { UnderIngestResult } from "./underIngest";

export interface IngestResult {
  bare: BareResult;
  worker: {
    rate: RateMeasurement;
    metrics: WorkerMetrics;
    cpu: CpuWindow;
    redisCommands: Array<{ command: string; calls: number; usec: number }>;
    /** Top self-time functions of the worker, when run with --profile. */
    profile?: ProfileEntry[];
    /** How often its /metrics was read while the rate was timed (absent in older results). */
    metricsPollMs?: number;
  };
  /** Worker events/s ÷ bare consumer events/s. */
  ratio: number;
}

export interface MemoryResult extends MemoryBreakdown {
  perMillion: { total: number; seen: number; rollups: number };
  /** Split into cells and key overhead (absent in older results). */
  perEvent?: BytesPerEvent;
}

/** One data set's run: one size in one shape. */
export interface SizeResult {
  /** Absent in results from before the multi-tenant set: `single`. */
  shape?: Shape;
  /** `single`: the large organization's recordings; `many`: all organizations' together. */
  size: number;
  totalEvents: number;
  /** Organizations in the data set (absent in older results). */
  organizations?: number;
  /** The organizations the dashboard queries were asked for (absent in older results). */
  queried?: AskedOrganization[];
  from: string;
  to: string;
  produce: ProduceResult;
  postgres: PostgresLoad;
  ingest: IngestResult;
  memory: MemoryResult;
  queries: QueryResult[];
  /**
   * The peers on the same events, one stream each: DuckDB and ClickHouse over raw rows, ClickHouse
   * with its materialized view and PostgreSQL's rollup table (`engineBench.ts`); the embedded ones
   * (all but PostgreSQL's) left out with --skip-engines. Older results hold the raw two only.
   */
  engines: EngineResult[];
  /** The 200-connection run; the single set only (empty for the multi-tenant set). */
  throughput: ThroughputResult[];
  /**
   * The same run's cached target (b) and `/stats/dimensions` against one API process
   * (`API_PROCESSES=1`): what a design with one request thread serves (absent in older results).
   */
  throughputOneProcess?: ThroughputResult[];
  /**
   * The dashboard queries asked again while the worker applies a steady stream (underIngest.ts);
   * absent with --skip-under-ingest and in older results.
   */
  underIngest?: UnderIngestResult;
  /** The multi-tenant set only: its smallest organization beside a heavy organization's questions. */
  noisyNeighbour?: NoisyNeighbourResult;
  /** 1-minute load average at phase ends: above the core count, other work competed for the CPU. */
  loadAverage: Record<string, number>;
  /** Top self-time functions of the query API over all query runs, when run with --profile. */
  apiProfile?: ProfileEntry[];
  freshness: FreshnessResult;
  /** The multi-tenant set only: brand-new organizations' first recordings (absent in older results). */
  newOrganizations?: NewOrganizationProbe;
  /** The multi-tenant set only: one more recording per organization, read as a backlog (absent in older results). */
  steady?: SteadyPassResult;
  /** The multi-tenant set only: two workers in one group on its topic (absent in older results). */
  twoWorkers?: TwoWorkerResult;
}

export interface BenchResults {
  runId: string;
  /** The product code measured: the commit, marked dirty when packages/ or services/ had changes. */
  commit: string;
  startedAt: string;
  finishedAt: string;
  /**
   * Set while the run is under way: results.json is written after each data set, so a run cut
   * short (a session's end, a crash) still leaves what it measured, which `--report-only` renders.
   */
  partial?: true;
  redis: string;
  connections: number;
  queryDurationS: number;
  throughputConnections: number;
  throughputDurationS: number;
  machine: MachineInfo;
  /** `--shapes` and `--orgs` of the run (absent in older results: the single set alone). */
  shapes?: Shape[];
  orgs?: number;
  /** Every data set run, size by size, each size's shapes in `--shapes` order. */
  sizes: SizeResult[];
}

export const shapeOf = (s: SizeResult): Shape => s.shape ?? "single";

/** The runs of one shape, smallest size first. */
export function runsOf(results: BenchResults, shape: Shape): SizeResult[] {
  return results.sizes.filter((s) => shapeOf(s) === shape);
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

/** The runs of one size, by shape (either may be missing). */
export interface SizePair {
  size: number;
  single?: SizeResult;
  many?: SizeResult;
}

export function sizePairs(results: BenchResults): SizePair[] {
  const sizes = [...new Set(results.sizes.map((s) => s.size))].sort((a, b) => a - b);
  return sizes.map((size) => {
    const at = (shape: Shape) => results.sizes.find((s) => s.size === size && shapeOf(s) === shape);
    const single = at("single");
    const many = at("many");
    return { size, ...(single ? { single } : {}), ...(many ? { many } : {}) };
  });
}

/** Multi-tenant worker events/s ÷ single-org worker events/s, of one size in the same run. */
export function tenantIngestRatio(pair: SizePair): number {
  if (pair.single === undefined || pair.many === undefined) return Number.NaN;
  return pair.many.ingest.worker.rate.eventsPerSecond / pair.single.ingest.worker.rate.eventsPerSecond;
}

/** ClickHouse's bytes on disk per event (its table's active parts ÷ rows), if it ran. */
export function clickhouseBytesPerEvent(s: SizeResult): number {
  const storage = s.engines.find((e) => e.name === PEER_NAMES.clickhouse)?.storage;
  return storage && storage.rows > 0 ? storage.bytes / storage.rows : Number.NaN;
}

/** Redis' bytes per event: `used_memory` after the ingest minus before, ÷ events. */
export const redisBytesPerEvent = (s: SizeResult): number =>
  s.memory.perEvent?.total ?? s.memory.usedMemoryDelta / s.totalEvents;

/** `b (ClickHouse)`, `median:d (PostgreSQL rollup table)`: each peer answer that differs from the API's. */
export function engineMismatches(engines: readonly EngineResult[]): string[] {
  return engines.flatMap((e) =>
    Object.entries(e.queries)
      .filter(([, r]) => r.mismatch !== null)
      .map(([id]) => `${id} (${e.name})`),
  );
}
