import { get as httpGet } from "node:http";
import type { DashboardQuery } from "./dashboardQueries";
import { fmt, log } from "./log";
import { measureCpu } from "./processCpu";
import { runAutocannon } from "./queryBench";
import { runWrk, wrkInstalled } from "./wrkLoad";

export interface ThroughputResult {
  id: string;
  path: string;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** Non-2xx answers, connection errors and time-outs (autocannon's 10 s). */
  errors: number;
  /**
   * Cores each side used over the run: the API, Redis, and the load generator (autocannon, in the
   * bench's own process on the same machine). A target whose load generator is at a full core
   * while the API is not measures the client. Absent in older results.
   */
  cores?: { api: number; redis: number; loadGenerator: number };
  /** wrk in a process of its own when installed, else autocannon in the bench's (absent: autocannon). */
  loadGenerator?: "wrk" | "autocannon";
  /** Bytes of one answer as sent (compressed when `contentEncoding` is set). */
  responseBytes?: number;
  /** The answer's `Content-Encoding` (absent: sent as it is, or an older result). */
  contentEncoding?: string;
}

export interface ThroughputOptions {
  baseUrl: string;
  /** The API's ops port (its /healthz tells when the queued requests are answered). */
  opsUrl: string;
  token: string;
  apiPid: number;
  redisPid: number;
  connections: number;
  durationS: number;
}

/** The fixed-cost reference: authentication, the rate limit and one small read. */
export const DIMENSIONS_PATH = "/api/v1/stats/dimensions";

/**
 * What the load generator asks for, as a browser or a BI client does: compressed answers (the API
 * keeps each kept page's encodings, http/encodedBodies.ts).
 */
export const THROUGHPUT_HEADERS = { "accept-encoding": "gzip, deflate, br" };

/**
 * One answer's body as sent (after de-chunking, without headers) and its coding, as the load
 * generator will read it. Not `fetch`: it decompresses, and would count the body it made.
 */
function answerAsSent(url: string, token: string): Promise<{ bytes: number; encoding?: string }> {
  return new Promise((resolve, reject) => {
    const req = httpGet(
      url,
      { headers: { ...THROUGHPUT_HEADERS, authorization: `Bearer ${token}` } },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          return reject(new Error(`${url} answered ${res.statusCode}, not 200: nothing to measure`));
        }
        let bytes = 0;
        res.on("data", (chunk: Buffer) => {
          bytes += chunk.length;
        });
        res.on("end", () => {
          const encoding = res.headers["content-encoding"];
          resolve({ bytes, ...(encoding === undefined ? {} : { encoding }) });
        });
        res.on("error", reject);
      },
    );
    req.on("error", reject);
  });
}

/**
 * autocannon stops sending at the end of its run, but requests already queued in the API are still
 * answered: wait until a health check answers quickly, so one target's backlog is not measured as
 * the next one's latency.
 */
async function waitUntilIdle(opsUrl: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const t0 = performance.now();
    await fetch(`${opsUrl}/healthz`).then((r) => r.arrayBuffer());
    if (performance.now() - t0 < 20) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * Many clients at once on the zoned queries and on `/stats/dimensions`: how many requests per
 * second the API sustains, and whether anyone waits too long or is refused. A zoned query that
 * costs what it returns keeps a good share of the fixed-cost reference's rate.
 */
export async function benchThroughput(
  queries: readonly DashboardQuery[],
  ids: readonly string[],
  options: ThroughputOptions,
): Promise<ThroughputResult[]> {
  const targets = [
    ...ids.map((id) => {
      const query = queries.find((q) => q.id === id);
      if (query === undefined) throw new Error(`no dashboard query ${id}`);
      return { id, path: query.path };
    }),
    { id: "dimensions", path: DIMENSIONS_PATH },
  ];
  const results: ThroughputResult[] = [];
  const useWrk = await wrkInstalled();
  for (const { id, path } of targets) {
    await waitUntilIdle(options.opsUrl);
    const answer = await answerAsSent(options.baseUrl + path, options.token);
    const cpu = measureCpu({ api: options.apiPid, redis: options.redisPid, loadGenerator: process.pid });
    const url = options.baseUrl + path;
    const run = useWrk
      ? await runWrk(url, options.token, options.connections, options.durationS, THROUGHPUT_HEADERS)
      : await runAutocannon(url, options.token, options.connections, options.durationS, THROUGHPUT_HEADERS);
    const window = cpu.end();
    const cores = {
      api: window.cores.api ?? 0,
      redis: window.cores.redis ?? 0,
      loadGenerator:
        "cpuSeconds" in run ? run.cpuSeconds / window.seconds : (window.cores.loadGenerator ?? 0),
    };
    const result = {
      id,
      path,
      requestsPerSecond: run.requestsPerSecond,
      p50: run.p50,
      p99: run.p99,
      errors: "errors" in run ? run.errors : run.non2xx,
      cores,
      loadGenerator: useWrk ? ("wrk" as const) : ("autocannon" as const),
      responseBytes: answer.bytes,
      ...(answer.encoding === undefined ? {} : { contentEncoding: answer.encoding }),
    };
    log(
      `  throughput (${id}) ${options.connections} connections: ${fmt(result.requestsPerSecond)} req/s, ` +
        `p50 ${fmt(result.p50, 1)} ms, p99 ${fmt(result.p99, 1)} ms, ${fmt(result.errors)} errors; ` +
        `cores: API ${fmt(cores.api, 2)}, Redis ${fmt(cores.redis, 2)}, load generator ${fmt(cores.loadGenerator, 2)}; ` +
        `${fmt(answer.bytes / 1024, 1)} KiB per answer (${answer.encoding ?? "identity"})`,
    );
    results.push(result);
  }
  return results;
}
