import type { RedisClient } from "@vu/store";
import autocannon from "autocannon";
import pg from "pg";
import type { DashboardQuery } from "./dashboardQueries";
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

export interface QueryResult {
  id: string;
  title: string;
  path: string;
  /** Rows in the page (1 for the summary) and all rows of the query. */
  rows: number;
  totalRows: number;
  api: LatencySummary & { requestsPerSecond: number; non2xx: number };
  postgres: LatencySummary & { queriesPerSecond: number };
  /** PostgreSQL p50 ÷ API p50. */
  speedupP50: number;
  cost: RequestCost;
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
export function runAutocannon(url: string, token: string, connections: number, durationS: number) {
  const times: number[] = [];
  return new Promise<LatencySummary & { requestsPerSecond: number; non2xx: number }>((resolve, reject) => {
    const instance = autocannon(
      { url, connections, duration: durationS, headers: { authorization: `Bearer ${token}` } },
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

async function verify(query: DashboardQuery, options: QueryBenchOptions) {
  const res = await fetch(options.baseUrl + query.path, {
    headers: { authorization: `Bearer ${options.token}` },
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
    if (mismatch === null && empty) mismatch = "both systems returned nothing: the query tests nothing";
    return { api, mismatch, plan };
  } finally {
    await client.end();
  }
}

/**
 * Each query checked against PostgreSQL, then run under autocannon against the API and in the same
 * closed loop against PostgreSQL. Returns the API's answers too, for the other engines to match.
 */
export async function benchQueries(
  queries: readonly DashboardQuery[],
  options: QueryBenchOptions,
): Promise<{ results: QueryResult[]; answers: Map<string, ComparableAnswer> }> {
  const results: QueryResult[] = [];
  const answers = new Map<string, ComparableAnswer>();
  for (const query of queries) {
    const { api: answer, mismatch, plan } = await verify(query, options);
    answers.set(query.id, answer);
    if (mismatch) log(`  !!! MISMATCH in query ${query.id} (${query.title}): ${mismatch}`);
    const cpu = measureCpu({ api: options.apiPid, redis: options.redisPid });
    const statsBefore = await commandStats(options.redis);
    const bytesBefore = await netOutputBytes(options.redis);
    const api = await runAutocannon(
      options.baseUrl + query.path,
      options.token,
      options.connections,
      options.durationS,
    );
    const window = cpu.end();
    const bytes = (await netOutputBytes(options.redis)) - bytesBefore;
    const commands = commandStatsDelta(statsBefore, await commandStats(options.redis));
    const requests = Math.max(1, api.samples + api.non2xx);
    const cost: RequestCost = {
      apiCpuMs: ((window.cores.api ?? 0) * window.seconds * 1000) / requests,
      redisCpuMs: ((window.cores.redis ?? 0) * window.seconds * 1000) / requests,
      redisCalls: commands.reduce((n, c) => n + c.calls, 0) / requests,
      hgetallMs: (commands.find((c) => c.command === "hgetall")?.usec ?? 0) / 1000 / requests,
      redisBytes: bytes / requests,
    };
    const postgres = await runPostgres(query, options);
    const result: QueryResult = {
      id: query.id,
      title: query.title,
      path: query.path,
      rows: answer.rows.length,
      totalRows: answer.totalRows,
      api,
      postgres,
      speedupP50: postgres.p50 / api.p50,
      cost,
      mismatch,
      plan,
    };
    log(
      `  (${query.id}) ${query.title}: API p50 ${fmt(api.p50, 2)} ms p99 ${fmt(api.p99, 2)} ms ` +
        `(${fmt(api.requestsPerSecond)} req/s) | PostgreSQL p50 ${fmt(postgres.p50, 1)} ms ` +
        `p99 ${fmt(postgres.p99, 1)} ms (n=${postgres.samples}) | ×${fmt(result.speedupP50, 1)} | ` +
        `${mismatch ? "MISMATCH" : "same numbers"} | per request: API CPU ${fmt(cost.apiCpuMs, 1)} ms, ` +
        `Redis CPU ${fmt(cost.redisCpuMs, 1)} ms, ${fmt(cost.redisBytes / 1024)} KiB from Redis`,
    );
    if (api.non2xx > 0) throw new Error(`query ${query.id}: ${api.non2xx} requests failed under load`);
    results.push(result);
  }
  return { results, answers };
}
