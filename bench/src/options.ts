import { parseArgs } from "node:util";
import { SHAPES, type Shape } from "./benchDataset";
import { DEFAULT_ORGS } from "./manyOrgDataset";
import { FRESHNESS_SUSTAIN_S } from "./targetBounds";

/** What one `npm run bench` does; every field can be set by a flag, most also by an environment variable. */
export interface BenchOptions {
  /**
   * Recordings per data set: the large organization's (`single`), all organizations' together
   * (`many`). Each size and shape is a separate data set end to end.
   */
  sizes: number[];
  /** The data sets each size runs, in this order: one large organization, and/or the multi-tenant set. */
  shapes: Shape[];
  /** Organizations of the multi-tenant data set. */
  orgs: number;
  kafkaBrokers: string[];
  /** Used with --shared-redis; otherwise the bench starts a private redis-server. */
  redisUrl: string;
  sharedRedis: boolean;
  /** A database of its own, so the bench never touches another team's tables. */
  postgresUrl: string;
  /** Closed-loop concurrency, the same for the API (autocannon connections) and PostgreSQL (clients). */
  connections: number;
  /** Seconds each API query is hammered for. */
  queryDurationS: number;
  /**
   * Seconds each API query is also run by one client alone: single stream, as the embedded
   * engines are timed, so that comparison is at equal concurrency.
   */
  singleStreamDurationS: number;
  /** PostgreSQL: at least this many executions per query, even past the duration… */
  pgMinSamples: number;
  /** …but never longer than this, so a slow query cannot eat the run. */
  pgMaxDurationS: number;
  /** Throughput section: autocannon connections and seconds per target. */
  throughputConnections: number;
  throughputDurationS: number;
  /** Skip DuckDB and ClickHouse (they install ~600 MB on first use). */
  skipEngines: boolean;
  /** Skip the under-ingest pass (the dashboard queries again while a steady stream is applied). */
  skipUnderIngest: boolean;
  /**
   * Freshness probe: events per second (default: FRESHNESS_LOAD_SHARE of the rate the worker
   * reached on the data set's backlog in the same run) and for how long.
   */
  freshRate?: number;
  freshDurationS: number;
  /** The multi-tenant set's steady pass: how many more recordings each organization gets, one per pass. */
  steadyPasses: number;
  /** Pass `--cpu-prof` to the worker child, to see what limits ingest. */
  profile: boolean;
  /** Keep the PostgreSQL tables afterwards (Redis keys and Kafka topics are always removed). */
  keepPostgres: boolean;
  seed: number;
  /** Re-render REPORT.md and the chart from bench/results.json without measuring anything. */
  reportOnly: boolean;
  /** Only the ingest part (bare consumer, worker, memory), logged; no PostgreSQL, queries or report. */
  ingestOnly: boolean;
}

const QUICK_SIZES = [50_000, 200_000];
const FULL_SIZES = [1_000_000, 10_000_000];

function parseSizes(text: string): number[] {
  const sizes = text.split(",").map((part) => Number(part.trim().replace(/_/g, "")));
  if (sizes.length === 0 || sizes.some((n) => !Number.isSafeInteger(n) || n < 1000)) {
    throw new Error(`--sizes must be a comma-separated list of integers ≥ 1000, got "${text}"`);
  }
  return sizes.sort((a, b) => a - b);
}

function parseShapes(text: string): Shape[] {
  const names = text.split(",").map((part) => part.trim());
  const shapes = SHAPES.filter((shape) => names.includes(shape));
  if (names.length === 0 || shapes.length !== new Set(names).size) {
    throw new Error(`--shapes must be a comma-separated list of ${SHAPES.join(", ")}, got "${text}"`);
  }
  return shapes;
}

function positive(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (!(Number.isFinite(value) && value > 0))
    throw new Error(`${name} must be a positive number, got "${text}"`);
  return value;
}

/**
 * One pass is one recording per organization, `--orgs` events: few enough for the worker to take
 * within a poll or two of its /metrics, which would time nothing; more passes give the rate a
 * window many polls long.
 */
function steadyPasses(text: string | undefined, quick: boolean): number {
  const passes = positive("--steady-passes", text, quick ? 5 : 20);
  if (!Number.isSafeInteger(passes)) throw new Error(`--steady-passes must be an integer, got "${text}"`);
  return passes;
}

export function parseOptions(argv: string[], env: NodeJS.ProcessEnv = process.env): BenchOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      sizes: { type: "string" },
      shapes: { type: "string" },
      orgs: { type: "string" },
      quick: { type: "boolean", default: false },
      connections: { type: "string" },
      "query-duration": { type: "string" },
      "single-duration": { type: "string" },
      "pg-min-samples": { type: "string" },
      "pg-max-duration": { type: "string" },
      "throughput-connections": { type: "string" },
      "throughput-duration": { type: "string" },
      "skip-engines": { type: "boolean", default: false },
      "skip-under-ingest": { type: "boolean", default: false },
      "fresh-rate": { type: "string" },
      "fresh-duration": { type: "string" },
      "steady-passes": { type: "string" },
      profile: { type: "boolean", default: false },
      "shared-redis": { type: "boolean", default: false },
      "keep-postgres": { type: "boolean", default: false },
      seed: { type: "string" },
      "report-only": { type: "boolean", default: false },
      "ingest-only": { type: "boolean", default: false },
    },
    strict: true,
  });
  const sizesText = values.sizes ?? env.BENCH_SIZES;
  const quick = values.quick ?? false;
  const sizes = sizesText ? parseSizes(sizesText) : quick ? QUICK_SIZES : FULL_SIZES;
  const shapes = parseShapes(values.shapes ?? SHAPES.join(","));
  const orgs = positive("--orgs", values.orgs, DEFAULT_ORGS);
  if (!Number.isSafeInteger(orgs)) throw new Error(`--orgs must be an integer, got "${values.orgs}"`);
  if (shapes.includes("many") && sizes.some((size) => size < orgs)) {
    throw new Error(
      `the multi-tenant data set needs a recording per organization: every size ≥ --orgs ${orgs}`,
    );
  }
  return {
    sizes,
    shapes,
    orgs,
    kafkaBrokers: (env.KAFKA_BROKERS ?? "127.0.0.1:9092").split(",").map((b) => b.trim()),
    redisUrl: env.REDIS_URL ?? "redis://127.0.0.1:6379",
    sharedRedis: values["shared-redis"] ?? false,
    postgresUrl: env.BENCH_PG_URL ?? "postgres://postgres@127.0.0.1:5432/vu_bench",
    connections: positive("--connections", values.connections, 4),
    queryDurationS: positive("--query-duration", values["query-duration"], quick ? 3 : 10),
    singleStreamDurationS: positive("--single-duration", values["single-duration"], quick ? 2 : 5),
    pgMinSamples: positive("--pg-min-samples", values["pg-min-samples"], quick ? 10 : 30),
    pgMaxDurationS: positive("--pg-max-duration", values["pg-max-duration"], quick ? 10 : 90),
    throughputConnections: positive("--throughput-connections", values["throughput-connections"], 200),
    throughputDurationS: positive("--throughput-duration", values["throughput-duration"], quick ? 10 : 60),
    skipEngines: values["skip-engines"] ?? false,
    skipUnderIngest: values["skip-under-ingest"] ?? false,
    ...(values["fresh-rate"] === undefined
      ? {}
      : { freshRate: positive("--fresh-rate", values["fresh-rate"], Number.NaN) }),
    freshDurationS: positive("--fresh-duration", values["fresh-duration"], quick ? 8 : FRESHNESS_SUSTAIN_S),
    steadyPasses: steadyPasses(values["steady-passes"], quick),
    profile: values.profile ?? false,
    keepPostgres: values["keep-postgres"] ?? false,
    seed: positive("--seed", values.seed, 42),
    reportOnly: values["report-only"] ?? false,
    ingestOnly: values["ingest-only"] ?? false,
  };
}
