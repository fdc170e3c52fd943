import type { RecordingCompletedInput } from "@vu/events";
import { waitFor } from "@vu/infra";
import { recordingEvent } from "@vu/testkit";
import type { Kafka } from "kafkajs";
import { METRICS_POLL_MS, readWorkerMetrics, settled } from "./ingestBench";
import { produceDataset } from "./kafkaTopics";
import { fmt, log } from "./log";

/**
 * The noisy neighbour's heavy organization: every recording with a member and an app of its own, so its
 * every-member-by-hour answer has one row per recording. The data set's own organizations are far
 * smaller than that answer needs to be for paging through it to mean anything.
 */
export const HEAVY_ORG = "bench-heavy";
export const HEAVY_RECORDINGS = 100_000;
export const HEAVY_DAYS = 30;

const DAY_MS = 86_400_000;

/** What the section stored of the heavy organization (absent in results from before it existed). */
export interface HeavyOrganizationLoad {
  org: string;
  /** Recordings the worker applied; each its own member and its own app. */
  recordings: number;
  /** They lie in the `days` days before the data set's end. */
  days: number;
  produceSeconds: number;
  /** From the first event produced to the last one applied. */
  applySeconds: number;
}

const serial = (i: number) => String(i).padStart(6, "0");

/**
 * `count` valid events of `org`, evenly over the `days` days before `toMs` (whole seconds, every
 * one inside [toMs - days, toMs)), the i-th with member `member-<i>@heavy.example` and app `App <i>`.
 */
export function* heavyEvents(
  org: string,
  count: number,
  toMs: number,
  days = HEAVY_DAYS,
): Generator<RecordingCompletedInput> {
  const span = days * DAY_MS;
  const fromMs = toMs - span;
  for (let i = 0; i < count; i++) {
    const atMs = Math.floor((fromMs + ((i + 0.5) * span) / count) / 1000) * 1000;
    yield recordingEvent(`heavy-${serial(i)}`, new Date(atMs).toISOString(), {
      organization_id: org,
      member_email: `member-${serial(i)}@heavy.example`,
      app_name: `App ${serial(i)}`,
    });
  }
}

/**
 * Produces the heavy organization into the topic the running worker reads (the data set's own
 * producer path) and waits until the worker's counters have taken every event, as the ingest
 * measurement does. Events dead-lettered or skipped are logged: the answer would be smaller.
 */
export async function loadHeavyOrganization(input: {
  kafka: Kafka;
  topic: string;
  metricsUrl: string;
  toMs: number;
  recordings?: number;
}): Promise<HeavyOrganizationLoad> {
  const total = input.recordings ?? HEAVY_RECORDINGS;
  log(`  noisy neighbour: producing ${fmt(total)} recordings of ${HEAVY_ORG}, each its own member and app`);
  const before = await readWorkerMetrics(input.metricsUrl);
  const started = performance.now();
  const events = { [Symbol.iterator]: () => heavyEvents(HEAVY_ORG, total, input.toMs) };
  const produce = await produceDataset(input.kafka, input.topic, { total, events });
  const after = await waitFor(
    async () => {
      const m = await readWorkerMetrics(input.metricsUrl);
      return settled(m) - settled(before) >= total ? m : undefined;
    },
    {
      timeoutMs: 300_000 + total / 2,
      intervalMs: METRICS_POLL_MS,
      message: `the worker to apply ${HEAVY_ORG}`,
    },
  );
  const applySeconds = (performance.now() - started) / 1000;
  const applied = after.applied - before.applied;
  if (applied !== total)
    log(`  !!! ${HEAVY_ORG}: ${fmt(applied)} of ${fmt(total)} applied (the rest skipped or dead-lettered)`);
  log(`  ${HEAVY_ORG}: produced in ${fmt(produce.seconds, 1)} s, applied after ${fmt(applySeconds, 1)} s`);
  return {
    org: HEAVY_ORG,
    recordings: applied,
    days: HEAVY_DAYS,
    produceSeconds: produce.seconds,
    applySeconds,
  };
}
