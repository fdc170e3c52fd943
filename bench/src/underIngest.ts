import { waitFor } from "@vu/infra";
import type { RunningApi } from "./apiService";
import type { BenchDataset } from "./benchDataset";
import { type CacheLookups, hitRate, lookupsBetween, readCacheLookups } from "./cacheLookups";
import { startChild } from "./childService";
import type { DashboardQuery } from "./dashboardQueries";
import { METRICS_POLL_MS, readWorkerMetrics, settled } from "./ingestBench";
import { fmt, log } from "./log";
import { type ApiRun, NO_CACHE, runAutocannon } from "./queryBench";
import { UNDER_INGEST_RATE_SHARE } from "./targetBounds";

/**
 * The steady stream's organizations: its own, so the answers checked against PostgreSQL cannot
 * change under it, and several, so its events spread over the topic's partitions (the message key
 * is the organization) as a stream of many tenants does.
 */
const STEADY_ORGANIZATIONS = 6;

/** One dashboard query asked again while the stream is applied, both ways the API is asked. */
export interface UnderIngestQuery {
  /** The query's id in the data set's `queries` (its idle runs). */
  id: string;
  cached: ApiRun;
  computed: ApiRun;
  /** The result cache's lookups during the cached run. */
  lookups: CacheLookups;
}

export interface UnderIngestResult {
  /** The worker's rate on the full topic in this data set's ingest measurement (events/s). */
  workerRate: number;
  /** The stream's share of it (UNDER_INGEST_RATE_SHARE) and the rate asked of the producer. */
  share: number;
  targetRate: number;
  /** Events the worker took per second from the first query run's start to the last one's end. */
  appliedRate: number;
  /** Events the producer sent, all of them applied before the pass ended. */
  sent: number;
  /**
   * Events the producer sent per second over its whole run (absent in older results): below the
   * rate asked, the producer, not the worker, fell short.
   */
  producedRate?: number;
  organizations: number;
  queries: UnderIngestQuery[];
}

export interface UnderIngestInput {
  dataset: BenchDataset;
  dashboard: readonly DashboardQuery[];
  api: RunningApi;
  kafkaBrokers: string[];
  topic: string;
  runId: string;
  /** The running worker's /metrics. */
  metricsUrl: string;
  workerRate: number;
  connections: number;
  durationS: number;
}

/**
 * The dashboard queries of every queried organization asked again, cached and computed in the same
 * closed loop as their idle runs, while a child process produces new recordings at
 * UNDER_INGEST_RATE_SHARE of the worker's backlog rate and the worker applies them. Returns once
 * the worker has taken every event sent, so the next measurement starts with no backlog.
 */
export async function benchUnderIngest(input: UnderIngestInput): Promise<UnderIngestResult> {
  const targetRate = UNDER_INGEST_RATE_SHARE * input.workerRate;
  const orgs = Array.from({ length: STEADY_ORGANIZATIONS }, (_, i) => `bench-steady-${input.runId}-${i + 1}`);
  log(`  under ingest: ${fmt(targetRate)} events/s over ${orgs.length} organizations of its own`);
  const before = settled(await readWorkerMetrics(input.metricsUrl));
  let output = "";
  const producer = startChild({
    name: `steady-producer-${input.runId}`,
    script: "bench/src/steadyProducer.ts",
    env: {
      KAFKA_BROKERS: input.kafkaBrokers.join(","),
      BENCH_TOPIC: input.topic,
      BENCH_RATE: String(targetRate),
      BENCH_ORGS: orgs.join(","),
      BENCH_RUN: input.runId,
    },
    onStdout: (chunk) => {
      output += chunk;
    },
  });
  let queries: UnderIngestQuery[];
  let appliedRate: number;
  try {
    // The first run starts once the worker is applying the stream, not while the producer connects.
    await waitFor(async () => settled(await readWorkerMetrics(input.metricsUrl)) > before || undefined, {
      timeoutMs: 60_000,
      intervalMs: METRICS_POLL_MS,
      message: "the worker to apply the steady stream",
    });
    const start = { at: performance.now(), taken: settled(await readWorkerMetrics(input.metricsUrl)) };
    queries = await askAll(input);
    const taken = settled(await readWorkerMetrics(input.metricsUrl)) - start.taken;
    appliedRate = taken / ((performance.now() - start.at) / 1000);
  } finally {
    await producer.stop();
  }
  const { sent, seconds } = produced(output);
  await waitFor(
    async () => settled(await readWorkerMetrics(input.metricsUrl)) - before >= sent || undefined,
    {
      timeoutMs: 300_000,
      intervalMs: METRICS_POLL_MS,
      message: `the worker to apply the steady stream's ${sent} events`,
    },
  );
  const producedRate = sent / seconds;
  log(
    `  under ingest: the producer sent ${fmt(producedRate)} events/s and the worker took ` +
      `${fmt(appliedRate)} events/s of ${fmt(targetRate)} asked`,
  );
  return {
    workerRate: input.workerRate,
    share: UNDER_INGEST_RATE_SHARE,
    targetRate,
    appliedRate,
    sent,
    producedRate,
    organizations: orgs.length,
    queries,
  };
}

/** The producer's last line: how many events it sent before it was stopped, and in how long. */
function produced(output: string): { sent: number; seconds: number } {
  const line = output.split("\n").find((l) => l.startsWith("{"));
  if (line === undefined) throw new Error("the steady producer exited without saying what it sent");
  return JSON.parse(line) as { sent: number; seconds: number };
}

async function askAll(input: UnderIngestInput): Promise<UnderIngestQuery[]> {
  const results: UnderIngestQuery[] = [];
  for (const { profile } of input.dataset.queried) {
    const org = profile.organizationId;
    const token = await input.api.tokenFor(org);
    for (const query of input.dashboard.filter((q) => q.raw.org === org)) {
      const url = input.api.baseUrl + query.path;
      const lookupsBefore = await readCacheLookups(input.api.opsUrl);
      const cached = await runAutocannon(url, token, input.connections, input.durationS);
      const lookups = lookupsBetween(lookupsBefore, await readCacheLookups(input.api.opsUrl));
      const computed = await runAutocannon(url, token, input.connections, input.durationS, NO_CACHE);
      for (const [name, run] of [
        ["cached", cached],
        ["computed", computed],
      ] as const)
        if (run.non2xx > 0) log(`  !!! under ingest, ${query.id} (${name}): ${run.non2xx} requests failed`);
      log(
        `  (${query.id}) under ingest: cached p50 ${fmt(cached.p50, 2)} ms p99 ${fmt(cached.p99, 2)} ms ` +
          `(hit rate ${fmt(hitRate(lookups) * 100, 1)} %), computed p50 ${fmt(computed.p50, 2)} ms ` +
          `p99 ${fmt(computed.p99, 2)} ms`,
      );
      results.push({ id: query.id, cached, computed, lookups });
    }
  }
  return results;
}
