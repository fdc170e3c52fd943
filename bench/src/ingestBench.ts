import { randomBytes } from "node:crypto";
import { join } from "node:path";
import { freePort, waitFor } from "@vu/infra";
import type { RedisClient } from "@vu/store";
import { brokerPid } from "./brokerPid";
import { type ChildService, OUT_DIR, startChild, waitForHttp } from "./childService";
import { fmt, log } from "./log";
import { type CpuWindow, measureCpu } from "./processCpu";
import { commandStats, commandStatsDelta, redisPid } from "./redisInfo";

/** The worker's default (services/ingest-worker/src/env.ts); the bare consumer uses the same. */
export const PARTITIONS_CONSUMED_CONCURRENTLY = 3;

/**
 * How often the worker's /metrics is read while ingest is timed: every scrape costs the worker CPU
 * (prom-client's default metrics), and this still times a run to within one interval
 * (docs/decisions/0023-bench-method.md).
 */
export const METRICS_POLL_MS = 250;

export interface RateMeasurement {
  /** Events counted between the first and the last observation. */
  events: number;
  seconds: number;
  eventsPerSecond: number;
}

export interface IngestTopic {
  brokers: string[];
  topic: string;
  dlqTopic: string;
  total: number;
  runId: string;
}

export function rate(events: number, ms: number): RateMeasurement {
  const seconds = ms / 1000;
  return { events, seconds, eventsPerSecond: seconds > 0 ? events / seconds : 0 };
}

export interface BareResult {
  rate: RateMeasurement;
  /** Cores the consumer used while reading (it reports its own CPU time: it has exited before /proc could be read). */
  cores: number;
  machineCores: number;
}

/** Reads the whole topic with a throw-away group and reports how fast kafkajs alone can go. */
export async function runBareConsumer(input: IngestTopic): Promise<BareResult> {
  let output = "";
  const child = startChild({
    name: `bare-consumer-${input.runId}`,
    script: "bench/src/bareConsumer.ts",
    env: {
      KAFKA_BROKERS: input.brokers.join(","),
      BENCH_TOPIC: input.topic,
      BENCH_GROUP: `bench-bare-${input.runId}`,
      BENCH_EXPECTED: String(input.total),
      BENCH_PARTITIONS_CONCURRENTLY: String(PARTITIONS_CONSUMED_CONCURRENTLY),
    },
    onStdout: (chunk) => {
      output += chunk;
    },
  });
  const machine = measureCpu({});
  try {
    const line = await waitFor(() => output.split("\n").find((l) => l.startsWith("{")), {
      timeoutMs: 120_000 + input.total / 5,
      intervalMs: 100,
      message: "the bare consumer to read the whole topic",
    });
    const report = JSON.parse(line) as {
      read: number;
      firstAt: number;
      firstCount: number;
      lastAt: number;
      cpuSeconds: number;
    };
    return {
      rate: rate(report.read - report.firstCount, report.lastAt - report.firstAt),
      cores: report.cpuSeconds / Math.max(0.001, (report.lastAt - report.firstAt) / 1000),
      machineCores: machine.end().machineCores,
    };
  } finally {
    await child.stop();
  }
}

export interface WorkerMetrics {
  applied: number;
  duplicates: number;
  deadLettered: number;
}

function metricValue(text: string, name: string): number {
  let sum = 0;
  for (const line of text.split("\n")) {
    if (line.startsWith(`${name} `) || line.startsWith(`${name}{`)) sum += Number(line.split(" ").at(-1));
  }
  return sum;
}

export async function readWorkerMetrics(metricsUrl: string): Promise<WorkerMetrics> {
  const text = await (await fetch(metricsUrl)).text();
  return {
    applied: metricValue(text, "vu_ingest_events_applied_total"),
    duplicates: metricValue(text, "vu_ingest_duplicates_skipped_total"),
    deadLettered: metricValue(text, "vu_ingest_dead_lettered_total"),
  };
}

export interface WorkerIngest {
  worker: ChildService;
  metricsUrl: string;
  rate: RateMeasurement;
  metrics: WorkerMetrics;
  cpu: CpuWindow;
  /** The costliest Redis commands during the ingest, with server time (evalsha includes its calls). */
  redisCommands: Array<{ command: string; calls: number; usec: number }>;
  /** METRICS_POLL_MS: the rate's first and last observation are each within this of the truth. */
  metricsPollMs: number;
}

/** A running worker child and where its counters are read. */
export interface StartedWorker {
  worker: ChildService;
  metricsUrl: string;
}

/**
 * Starts the real ingest worker (`services/ingest-worker/src/main.ts`) as a child process on the
 * topic, in the consumer group and under the key prefix given, and waits for its health check.
 */
export async function startWorker(input: {
  brokers: string[];
  topic: string;
  dlqTopic: string;
  redisUrl: string;
  prefix: string;
  group: string;
  name: string;
  profile: boolean;
}): Promise<StartedWorker> {
  const port = await freePort();
  const worker = startChild({
    name: input.name,
    script: "services/ingest-worker/src/main.ts",
    env: {
      KAFKA_BROKERS: input.brokers.join(","),
      KAFKA_GROUP_ID: input.group,
      RECORDINGS_TOPIC: input.topic,
      DLQ_TOPIC: input.dlqTopic,
      REDIS_URL: input.redisUrl,
      REDIS_PREFIX: input.prefix,
      // Required; the bench makes no token through the tokens topic, so any key of its own will do.
      TOKENS_SIGNING_KEY: randomBytes(32).toString("hex"),
      OPS_PORT: String(port),
      PARTITIONS_CONSUMED_CONCURRENTLY: String(PARTITIONS_CONSUMED_CONCURRENTLY),
    },
    nodeArgs: input.profile ? ["--cpu-prof", "--cpu-prof-dir", join(OUT_DIR, "prof")] : [],
  });
  await waitForHttp(worker, `http://127.0.0.1:${port}/healthz`);
  return { worker, metricsUrl: `http://127.0.0.1:${port}/metrics` };
}

/** Events a worker has taken: applied, skipped as duplicates, or dead-lettered. */
export const settled = (m: WorkerMetrics): number => m.applied + m.duplicates + m.deadLettered;

/**
 * The processes whose CPU an ingest window measures: the worker(s), Redis and, when it runs on this
 * machine, the Kafka broker (its CPU then includes any other client's work on it).
 */
export async function ingestPids(
  workers: Record<string, number>,
  redis: RedisClient,
  brokers: readonly string[],
): Promise<Record<string, number>> {
  const broker = brokerPid(brokers);
  return { ...workers, redis: await redisPid(redis), ...(broker === undefined ? {} : { broker }) };
}

/**
 * Starts the real ingest worker on the topic in the group `bench-worker-<runId>` (a worker started
 * again with the same runId resumes where the last one stopped), and measures from the first event
 * applied to the last of `total`, by polling its /metrics. The worker keeps running for the
 * freshness probe; the caller stops it.
 */
export async function runWorkerIngest(
  input: IngestTopic & { redis: RedisClient; redisUrl: string; prefix: string; profile: boolean },
): Promise<WorkerIngest> {
  const { worker, metricsUrl } = await startWorker({
    ...input,
    group: `bench-worker-${input.runId}`,
    name: `ingest-worker-${input.runId}`,
  });
  const pids = await ingestPids({ worker: worker.pid }, input.redis, input.brokers);
  // CPU and Redis counters start with the first applied batch, like the rate: the group join before
  // it is idle time that would dilute both.
  let first: { at: number; applied: number; cpu: ReturnType<typeof measureCpu> } | undefined;
  let statsBefore = await commandStats(input.redis);
  let lastLog = performance.now();
  const final = await waitFor(
    async () => {
      const m = await readWorkerMetrics(metricsUrl);
      const at = performance.now();
      if (first === undefined && m.applied > 0) {
        first = { at, applied: m.applied, cpu: measureCpu(pids) };
        statsBefore = await commandStats(input.redis);
      }
      if (at - lastLog > 10_000) {
        lastLog = at;
        log(`  worker applied ${fmt(m.applied)} / ${fmt(input.total)}`);
      }
      return settled(m) >= input.total ? { at, m } : undefined;
    },
    {
      timeoutMs: 300_000 + input.total / 2,
      intervalMs: METRICS_POLL_MS,
      message: "the worker to apply every event",
    },
  );
  const start = first ?? { at: final.at, applied: final.m.applied, cpu: measureCpu(pids) };
  const cpuWindow = start.cpu.end();
  const statsAfter = await commandStats(input.redis);
  return {
    worker,
    metricsUrl,
    rate: rate(final.m.applied - start.applied, final.at - start.at),
    metrics: final.m,
    cpu: cpuWindow,
    redisCommands: commandStatsDelta(statsBefore, statsAfter).slice(0, 10),
    metricsPollMs: METRICS_POLL_MS,
  };
}
