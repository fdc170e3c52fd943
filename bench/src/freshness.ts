import { createRecordingProducer } from "@vu/events";
import { sleep } from "@vu/infra";
import type { Kafka } from "kafkajs";
import { type LatencySummary, summarize } from "./latencyStats";
import { recordingNow, STREAM_BATCH_INTERVAL_MS } from "./recordingNow";

export interface FreshnessResult {
  targetRate: number;
  achievedRate: number;
  events: number;
  batchIntervalMs: number;
  pollIntervalMs: number;
  /** How long recordings were produced (absent in older results: events ÷ achieved rate). */
  durationS?: number;
  /**
   * The rate the worker reached on the backlog in the same run, which `targetRate` is a share of
   * (absent in older results, and when `--fresh-rate` set the rate).
   */
  workerRate?: number;
  /** Produce-to-visible, per batch: from just before `send` to the first API answer that counts it. */
  latency: LatencySummary;
}

export interface FreshnessOptions {
  kafka: Kafka;
  topic: string;
  baseUrl: string;
  token: string;
  org: string;
  rate: number;
  durationS: number;
}

/** How often the API is asked for the summary: each produce-to-visible figure is within this of the truth. */
export const POLL_INTERVAL_MS = 20;

/**
 * A steady stream of new recordings (recorded now, unique ids, an organization of their own) while
 * the API is polled for that organization's summary. Each batch is visible when the polled total
 * first reaches the running total including it; the poll interval bounds the error (±20 ms).
 */
export async function measureFreshness(options: FreshnessOptions): Promise<FreshnessResult> {
  const producer = createRecordingProducer({ kafka: options.kafka, topic: options.topic });
  await producer.connect();
  // Rounded up: the batches then carry at least the rate asked for.
  const perBatch = Math.max(1, Math.ceil((options.rate * STREAM_BATCH_INTERVAL_MS) / 1000));
  const batches = Math.round((options.durationS * 1000) / STREAM_BATCH_INTERVAL_MS);
  const sentAt: number[] = [];
  const cumulative: number[] = [];
  const latencies: number[] = [];
  let nextUnseen = 0;
  let producing = true;
  let finishedAt = Number.POSITIVE_INFINITY;

  const startMs = Date.now();
  const query = new URLSearchParams({
    start_date: new Date(startMs - 3_600_000).toISOString(),
    end_date: new Date(startMs + 3 * 3_600_000).toISOString(),
  });
  const url = `${options.baseUrl}/api/v1/stats/summary?${query.toString()}`;
  const total = perBatch * batches;

  const poller = (async () => {
    const deadline = () => !producing && performance.now() > finishedAt + 30_000;
    while (nextUnseen < batches && !deadline()) {
      const res = await fetch(url, { headers: { authorization: `Bearer ${options.token}` } });
      const at = performance.now();
      if (res.status !== 200) throw new Error(`freshness poll answered ${res.status}: ${await res.text()}`);
      const counted = ((await res.json()) as { total_recordings: number }).total_recordings;
      while (nextUnseen < sentAt.length && (cumulative[nextUnseen] ?? Number.POSITIVE_INFINITY) <= counted) {
        latencies.push(at - (sentAt[nextUnseen] ?? at));
        nextUnseen++;
      }
      await sleep(POLL_INTERVAL_MS);
    }
  })();

  const started = performance.now();
  try {
    for (let k = 0; k < batches; k++) {
      const due = started + k * STREAM_BATCH_INTERVAL_MS;
      const wait = due - performance.now();
      if (wait > 0) await sleep(wait);
      const events = Array.from({ length: perBatch }, (_, i) =>
        recordingNow(options.org, `fresh-${k}-${i}`, "fresh@example.com"),
      );
      sentAt.push(performance.now());
      cumulative.push((k + 1) * perBatch);
      await producer.send(events);
    }
  } finally {
    finishedAt = performance.now();
    producing = false;
    await producer.disconnect();
  }
  const achievedRate = total / ((finishedAt - started) / 1000);
  await poller;
  if (nextUnseen < batches)
    throw new Error(`freshness: only ${nextUnseen} of ${batches} batches became visible`);
  return {
    targetRate: options.rate,
    achievedRate,
    events: total,
    batchIntervalMs: STREAM_BATCH_INTERVAL_MS,
    pollIntervalMs: POLL_INTERVAL_MS,
    durationS: options.durationS,
    latency: summarize(latencies),
  };
}
