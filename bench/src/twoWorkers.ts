import { waitFor } from "@vu/infra";
import { createKeyspace, type RedisClient } from "@vu/store";
import type { Kafka } from "kafkajs";
import {
  ingestPids,
  METRICS_POLL_MS,
  type RateMeasurement,
  rate,
  readWorkerMetrics,
  type StartedWorker,
  settled,
  startWorker,
} from "./ingestBench";
import { fmt, log } from "./log";
import { type CpuWindow, measureCpu } from "./processCpu";
import { deleteKeyspace } from "./redisMemory";

/** The worker processes of the run, named as their CPU is (`worker-1`, `worker-2`). */
export const WORKER_NAMES = ["worker-1", "worker-2"] as const;

/** Two worker processes in one consumer group reading the same backlog into one prefix. */
export interface TwoWorkerResult {
  /** Events on the topic when they started: what both together took. */
  events: number;
  /** Both together, from when both were applying to the last event applied. */
  rate: RateMeasurement;
  /** Each process's share, over the same window. */
  perWorker: Array<{ name: string; applied: number; eventsPerSecond: number }>;
  /** `worker-1`, `worker-2`, `redis` and, when local, `broker`. */
  cpu: CpuWindow;
}

/** Events on the topic now: the sum over its partitions of high minus low watermark. */
export async function topicEvents(kafka: Kafka, topic: string): Promise<number> {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const offsets = await admin.fetchTopicOffsets(topic);
    return offsets.reduce((sum, p) => sum + Number(p.high) - Number(p.low), 0);
  } finally {
    await admin.disconnect();
  }
}

/**
 * Two workers started together in a group of their own, from the topic's start, into a prefix of
 * their own (removed afterwards): how far a second process carries the rate on this machine, and
 * what each process costs per event. The topic's organizations are spread over its partitions,
 * which the group divides between the two.
 */
export async function runTwoWorkers(input: {
  kafka: Kafka;
  brokers: string[];
  topic: string;
  dlqTopic: string;
  redis: RedisClient;
  redisUrl: string;
  prefix: string;
  runId: string;
}): Promise<TwoWorkerResult> {
  const total = await topicEvents(input.kafka, input.topic);
  log(`  two workers: one group, both reading the ${fmt(total)} events on the topic into ${input.prefix}`);
  const started: StartedWorker[] = [];
  try {
    // Started together, so the second joins the group while the first is still starting.
    const starting = WORKER_NAMES.map((name) =>
      startWorker({
        ...input,
        group: `bench-two-${input.runId}`,
        name: `ingest-${name}-${input.runId}`,
        profile: false,
      }),
    );
    for (const each of await Promise.allSettled(starting))
      if (each.status === "fulfilled") started.push(each.value);
    if (started.length < WORKER_NAMES.length) throw new Error("two workers: a worker did not start");
    const workerPids = Object.fromEntries(started.map((s, i) => [WORKER_NAMES[i] ?? "", s.worker.pid]));
    const pids = await ingestPids(workerPids, input.redis, input.brokers);
    const read = () => Promise.all(started.map((s) => readWorkerMetrics(s.metricsUrl)));
    let first: { at: number; applied: number[]; cpu: ReturnType<typeof measureCpu> } | undefined;
    const final = await waitFor(
      async () => {
        const metrics = await read();
        const at = performance.now();
        const applied = metrics.map((m) => m.applied);
        // The window opens once both apply: before the second has joined the group (a rebalance
        // waits for the first's batch in hand), the first alone reads the topic.
        if (first === undefined && applied.every((a) => a > 0))
          first = { at, applied, cpu: measureCpu(pids) };
        const taken = metrics.reduce((sum, m) => sum + settled(m), 0);
        return taken >= total ? { at, applied } : undefined;
      },
      {
        timeoutMs: 300_000 + total / 2,
        intervalMs: METRICS_POLL_MS,
        message: "two workers to apply the topic",
      },
    );
    const start = first ?? { at: final.at, applied: final.applied, cpu: measureCpu(pids) };
    const cpu = start.cpu.end();
    const ms = final.at - start.at;
    const each = final.applied.map((a, i) => a - (start.applied[i] ?? 0));
    const result: TwoWorkerResult = {
      events: total,
      rate: rate(
        each.reduce((a, b) => a + b, 0),
        ms,
      ),
      perWorker: each.map((applied, i) => ({
        name: WORKER_NAMES[i] ?? "",
        applied,
        eventsPerSecond: rate(applied, ms).eventsPerSecond,
      })),
      cpu,
    };
    log(
      `  two workers: ${fmt(result.rate.eventsPerSecond)} events/s together ` +
        `(${result.perWorker.map((w) => `${w.name} ${fmt(w.eventsPerSecond)}`).join(", ")})`,
    );
    return result;
  } finally {
    for (const s of started) await s.worker.stop();
    await deleteKeyspace(input.redis, createKeyspace({ prefix: input.prefix }));
  }
}
