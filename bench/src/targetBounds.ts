// Every bound the report's targets check, declared once: the target table (targets.ts,
// tenantTargets.ts, noisyReport.ts), the findings that explain its misses (findings.ts) and
// bench/README.md ("Targets checked in the report", held to these by targetBounds.test.ts) all
// read them from here, so a target text cannot name one bound while its check tests another.

/** Each query's p50 against the faster of DuckDB and ClickHouse over raw rows: at least this many times faster. */
export const MIN_ENGINE_SPEEDUP = 10;
/** Each query's p50 against ClickHouse with its materialized view, one stream each: at least this many times faster. */
export const MIN_ROLLUP_SPEEDUP = 3;
/** Each query's p50 against PostgreSQL: at least this many times faster. */
export const MIN_POSTGRES_SPEEDUP = 200;
/** A zoned query's p50 at most this many times its UTC twin's. */
export const MAX_ZONE_RATIO = 1.2;
/** Under the throughput connections, each query's req/s at least this share of `/stats/dimensions`'. */
export const MIN_THROUGHPUT_SHARE = 0.4;
/** …with a p99 under this. */
export const MAX_THROUGHPUT_P99_MS = 250;
/** Each query's p50 at the largest size at most this many times its p50 at the smallest. */
export const MAX_SCALING_GROWTH = 1.2;
/** The memory target's baseline: Redis MiB per million events (docs/decisions/0023-bench-method.md). */
export const BASELINE_MIB_PER_MILLION = 157;
/** Redis per million events at most this many times the baseline. */
export const MAX_MEMORY_OVER_BASELINE = 1.3;
/** One worker on the dense single organization: at least this many events per second. */
export const MIN_INGEST_RATE = 150_000;
/** The ingest worker's rate at least this share of the bare kafkajs consumer's. */
export const MIN_INGEST_RATIO = 0.3;
/** Redis' CPU per event the worker applies, in µs: at most this. */
export const MAX_REDIS_US_PER_EVENT = 4;
/** The worker process's CPU per event, in µs: at most this. */
export const MAX_WORKER_US_PER_EVENT = 5;
/** Produce-to-visible p99 under this… */
export const MAX_FRESHNESS_P99_MS = 1000;
/** …while recordings arrive at this share of the rate the worker reached on the backlog in the same run… */
export const FRESHNESS_LOAD_SHARE = 0.5;
/** …for at least this many seconds; a shorter probe (`--quick`) is shown, with no verdict. */
export const FRESHNESS_SUSTAIN_S = 300;
/** The multi-tenant set's Redis bytes per event (`used_memory` Δ ÷ events) at most this. */
export const MAX_TENANT_BYTES_PER_EVENT = 300;
/** The multi-tenant worker's rate at least this share of the single-org rate of the same size. */
export const MIN_TENANT_INGEST_RATIO = 0.8;
/** Steady state (every organization exists; one more recording each): at least this share of the single-org rate. */
export const MIN_STEADY_INGEST_RATIO = 0.7;
/** Steady state: Redis bytes per further event (`used_memory` Δ ÷ events) at most this. */
export const MAX_STEADY_BYTES_PER_EVENT = 150;
/** A new organization's first recording: Redis bytes (`used_memory` Δ ÷ organizations) at most this. */
export const MAX_NEW_ORG_BYTES = 1000;
/** Redis' bytes per event at most this many times ClickHouse's bytes on disk per event. */
export const MAX_REDIS_OVER_CLICKHOUSE = 10;
/** The small organization's p99 beside the heavy questions at most this many times its p99 alone. */
export const MAX_SMALL_P99_RATIO = 2;
/** Redis' longest command while the heavy questions run: under this. */
export const MAX_REDIS_COMMAND_MS = 10;
/** Pages after the first of the heavy answer: p50 at most this share of the first page's latency. */
export const MAX_LATER_PAGE_SHARE = 0.1;
/** The multi-tenant set's median and smallest organization: each computed p50 at most this share of PostgreSQL's. */
export const MAX_TENANT_POSTGRES_SHARE = 0.5;
/** …and each cached p50, one client alone, under this. */
export const MAX_TENANT_CACHED_P50_MS = 0.3;
/** API CPU per computed request of the 7-day hourly questions (a, f): at most this. */
export const MAX_HOURLY_API_CPU_MS = 1;
/** API CPU per cached request: at most this. */
export const MAX_CACHED_API_CPU_MS = 0.3;
/** The steady stream of the under-ingest pass: this share of the worker's rate on the backlog. */
export const UNDER_INGEST_RATE_SHARE = 0.5;
/** Under that stream, each computed p50 at most this many times the same query's idle p50. */
export const MAX_UNDER_INGEST_SLOWDOWN = 1.5;
/** Under that stream, the smallest organization's p99 under this. */
export const MAX_SMALL_P99_UNDER_INGEST_MS = 10;
