import type { RedisClient } from "@vu/store";
import autocannon from "autocannon";
import pg from "pg";
import type { AskedOrganization, DashboardQuery } from "./dashboardQueries";
import { postgresSql } from "./engines/postgresSql";
import { type LatencySummary, summarize } from "./latencyStats";
import { fmt, log } from "./log";
import { measureCpu } from "./processCpu";
import { commandStats, commandStatsDelta, netOutputBytes } from "./redisInfo";
import { type ComparableAnswer, compareAnswers, fromApi, fromSql } from "./resultCheck";

/** What one API request cost the servers, averaged over the autocannon run. */
export interface RequestCost {
  apiCpuMs: number;
  redisCpuMs: number;
  redisCalls: number;
  /** Server time of HGETALL, the rollup block reads. */
  hgetallMs: number;
  /** Bytes Redis sent (almost all of it to the API). */
  redisBytes: number;
}

/** One autocannon run against the API: per-response latencies, its request rate and its failures. */
export type ApiRun = LatencySummary & { requestsPerSecond: number; non2xx: number };

/** Asks the API to compute the answer from the rollups instead of serving its kept one. */
export const NO_CACHE = { "cache-control": "no-cache" } as const;

export interface QueryResult {
  id: string;
  title: string;
  path: string;
  /** Who it was asked for (the multi-tenant set's queries; absent in older results). */
  organization?: AskedOrganization;
  /**
   * Both systems found nothing: allowed for the multi-tenant set's organizations (a week of one
   * with a couple of hundred recordings a year may hold none, a CSV page 2 may be past the end), a
   * mismatch for the single set's large organization.
   */
  empty?: boolean;
  /** Rows in the page (1 for the summary) and all rows of the query. */
  rows: number;
  totalRows: number;
  /**
   * The cached case: the same URL repeated without a header, so (since the result cache) answered
   * from the kept answer after one HMGET of the organization's write stamp.
   */
  api: ApiRun;
  postgres: LatencySummary & { queriesPerSecond: number };
  /** PostgreSQL p50 ÷ cached API p50. */
  speedupP50: number;
  /** Per request of the cached run. */
  cost: RequestCost;
  /**
   * The computed case: the same URL with `Cache-Control: no-cache`, planned, read from the rollups
   * and summed on every request. Absent in results written before the bench measured both.
   */
  computed?: ApiRun;
  /** Per request of the computed run. */
  computedCost?: RequestCost;
  /** PostgreSQL p50 ÷ computed API p50. */
  computedSpeedupP50?: number;
  /**
   * Both cases again with one client alone (single stream, as the embedded engines are timed):
   * latency without queueing behind the other connections. Absent in older results.
   */
  singleStream?: { cached: ApiRun; computed: ApiRun };
  /** null when both systems returned the same numbers; otherwise the first difference. */
  mismatch: string | null;
  plan: string;
}

export interface QueryBenchOptions {
  redis: RedisClient;
  apiPid: number;
  redisPid: number;
  baseUrl: string;
  token: string;
  postgresUrl: string;
  /** The raw table PostgreSQL scans (schema-qualified). */
  table: string;
  connections: number;
  durationS: number;
  singleStreamDurationS: number;
  pgMinSamples: number;
  pgMaxDurationS: number;
}

/** Session settings for every PostgreSQL client: enough sort/hash memory for the grouped queries. */
const PG_SESSION = "SET work_mem = '64MB'";

async function pgClient(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  await client.query(PG_SESSION);
  return client;
}

/**
 * autocannon for the load (closed loop, `connections` at once, keep-alive); every response time
 * is also recorded from its `response` event, because its own histogram keeps whole milliseconds,
 * too coarse for answers that take one or two.
 */
export function runAutocannon(
  url: string,
  token: string,
  connections: number,
  durationS: number,
  headers: Record<string, string> = {},
) {
  const times: number[] = [];
  return new Promise<ApiRun>((resolve, reject) => {
    const instance = autocannon(
      { url, connections, duration: durationS, headers: { ...headers, authorization: `Bearer ${token}` } },
      (error, result) => {
        if (error) return reject(error);
        resolve({
          ...summarize(times),
          requestsPerSecond: result.requests.average,
          non2xx: result.non2xx + result.errors + result.timeouts,
        });
      },
    );
    instance.on("response", (_client, statusCode, _bytes, responseTime) => {
      if (statusCode === 200) times.push(responseTime);
    });
  });
}

/** The same closed loop against PostgreSQL: `connections` clients, each running the query back to back. */
async function runPostgres(query: DashboardQuery, options: QueryBenchOptions) {
  const sql = postgresSql(query.raw, options.table);
  const clients = await Promise.all(
    Array.from({ length: options.connections }, () => pgClient(options.postgresUrl)),
  );
  const times: number[] = [];
  const started = performance.now();
  const elapsedS = () => (performance.now() - started) / 1000;
  const keepGoing = () =>
    elapsedS() < options.pgMaxDurationS &&
    (elapsedS() < options.durationS || times.length < options.pgMinSamples);
  try {
    await Promise.all(
      clients.map(async (client) => {
        while (keepGoing()) {
          const t0 = performance.now();
          await client.query(sql);
          times.push(performance.now() - t0);
        }
      }),
    );
  } finally {
    await Promise.all(clients.map((c) => c.end()));
  }
  return { ...summarize(times), queriesPerSecond: times.length / elapsedS() };
}

/**
 * The API's answer, computed now (`no-cache`: the check is of the rollups and the aggregation, not
 * of a kept answer), against PostgreSQL's. The computed answer is kept, so the cached run that
 * follows is served from it from its first request.
 */
async function verify(query: DashboardQuery, options: QueryBenchOptions) {
  const res = await fetch(options.baseUrl + query.path, {
    headers: { ...NO_CACHE, authorization: `Bearer ${options.token}` },
  });
  const body = await res.text();
  if (res.status !== 200)
    throw new Error(`query ${query.id}: API answered ${res.status}: ${body.slice(0, 500)}`);
  const api = fromApi(query, body, res.headers);
  const client = await pgClient(options.postgresUrl);
  try {
    const { text, values } = postgresSql(query.raw, options.table);
    const sql = fromSql(query, (await client.query({ text, values })).rows);
    const explain = await client.query({ text: `EXPLAIN (ANALYZE, BUFFERS) ${text}`, values });
    const plan = explain.rows.map((r: Record<string, string>) => Object.values(r)[0]).join("\n");
    let mismatch = compareAnswers(api, sql);
    const empty = sql.rows.length === 0 || (query.kind === "summary" && sql.rows[0]?.total_recordings === 0);
    // The single set's large organization has data in every range asked: empty there tests nothing.
    const mustHaveData = (query.organization?.role ?? "large") === "large";
    if (mismatch === null && empty && mustHaveData)
      mismatch = "both systems returned nothing: the query tests nothing";
    return { api, mismatch, plan, empty };
  } finally {
    await client.end();
  }
}

/** autocannon on one URL with what it cost the API and Redis per request over the same window. */
async function measureApi(
  path: string,
  options: QueryBenchOptions,
  headers: Record<string, string> = {},
): Promise<{ run: ApiRun; cost: RequestCost }> {
  const cpu = measureCpu({ api: options.apiPid, redis: options.redisPid });
  const statsBefore = await commandStats(options.redis);
  const bytesBefore = await netOutputBytes(options.redis);
  const run = await runAutocannon(
    options.baseUrl + path,
    options.token,
    options.connections,
    options.durationS,
    headers,
  );
  const window = cpu.end();
  const bytes = (await netOutputBytes(options.redis)) - bytesBefore;
  const commands = commandStatsDelta(statsBefore, await commandStats(options.redis));
  const requests = Math.max(1, run.samples + run.non2xx);
  const cost: RequestCost = {
    apiCpuMs: ((window.cores.api ?? 0) * window.seconds * 1000) / requests,
    redisCpuMs: ((window.cores.redis ?? 0) * window.seconds * 1000) / requests,
    redisCalls: commands.reduce((n, c) => n + c.calls, 0) / requests,
    hgetallMs: (commands.find((c) => c.command === "hgetall")?.usec ?? 0) / 1000 / requests,
    redisBytes: bytes / requests,
  };
  return { run, cost };
}

/** Both cases by one client alone, as the embedded engines are timed. */
async function runSingleStream(path: string, options: QueryBenchOptions) {
  const url = options.baseUrl + path;
  const cached = await runAutocannon(url, options.token, 1, options.singleStreamDurationS);
  const computed = await runAutocannon(url, options.token, 1, options.singleStreamDurationS, NO_CACHE);
  return { cached, computed };
}

const describeRun = (name: string, run: ApiRun, cost: RequestCost) =>
  `${name} p50 ${fmt(run.p50, 2)} ms p99 ${fmt(run.p99, 2)} ms (${fmt(run.requestsPerSecond)} req/s; ` +
  `per request API CPU ${fmt(cost.apiCpuMs, 2)} ms, Redis CPU ${fmt(cost.redisCpuMs, 2)} ms, ` +
  `${fmt(cost.redisBytes / 1024, 1)} KiB from Redis)`;

/**
 * Each query checked against PostgreSQL, then run twice under autocannon against the API (first
 * repeated as a dashboard repeats it, answered from the result cache; then with `no-cache`,
 * computed on every request), and in the same closed loop against PostgreSQL. Returns the API's
 * answers too, for the other engines to match.
 */
export async function benchQueries(
  queries: readonly DashboardQuery[],
  options: QueryBenchOptions,
): Promise<{ results: QueryResult[]; answers: Map<string, ComparableAnswer> }> {
  const results: QueryResult[] = [];
  const answers = new Map<string, ComparableAnswer>();
  for (const query of queries) {
    const { api: answer, mismatch, plan, empty } = await verify(query, options);
    answers.set(query.id, answer);
    if (mismatch) log(`  !!! MISMATCH in query ${query.id} (${query.title}): ${mismatch}`);
    const cached = await measureApi(query.path, options);
    const computed = await measureApi(query.path, options, NO_CACHE);
    const singleStream = await runSingleStream(query.path, options);
    const postgres = await runPostgres(query, options);
    const result: QueryResult = {
      id: query.id,
      title: query.title,
      path: query.path,
      ...(query.organization ? { organization: query.organization } : {}),
      empty,
      rows: answer.rows.length,
      totalRows: answer.totalRows,
      api: cached.run,
      postgres,
      speedupP50: postgres.p50 / cached.run.p50,
      cost: cached.cost,
      computed: computed.run,
      computedCost: computed.cost,
      computedSpeedupP50: postgres.p50 / computed.run.p50,
      singleStream,
      mismatch,
      plan,
    };
    log(
      `  (${query.id}) ${query.title}: ${describeRun("cached", cached.run, cached.cost)} | ` +
        `${describeRun("computed", computed.run, computed.cost)} | PostgreSQL p50 ${fmt(postgres.p50, 1)} ms ` +
        `p99 ${fmt(postgres.p99, 1)} ms (n=${postgres.samples}) | p50 speed-up cached ×${fmt(result.speedupP50, 1)}, ` +
        `computed ×${fmt(result.computedSpeedupP50 ?? Number.NaN, 1)} | one stream p50 cached ` +
        `${fmt(singleStream.cached.p50, 2)} ms, computed ${fmt(singleStream.computed.p50, 2)} ms | ` +
        `${mismatch ? "MISMATCH" : "same numbers"}`,
    );
    for (const [name, run] of [
      ["cached", cached.run],
      ["computed", computed.run],
      ["cached, one stream", singleStream.cached],
      ["computed, one stream", singleStream.computed],
    ] as const) {
      if (run.non2xx > 0)
        throw new Error(`query ${query.id} (${name}): ${run.non2xx} requests failed under load`);
    }
    results.push(result);
  }
  return { results, answers };
}
