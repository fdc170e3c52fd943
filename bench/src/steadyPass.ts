import { generateEvents, type OrganizationProfile } from "@vu/demo-data";
import type { RecordingCompletedInput } from "@vu/events";
import { waitFor } from "@vu/infra";
import type { RedisClient } from "@vu/store";
import { recordingEvent } from "@vu/testkit";
import type { Kafka } from "kafkajs";
import {
  type IngestTopic,
  METRICS_POLL_MS,
  type RateMeasurement,
  readWorkerMetrics,
  runWorkerIngest,
  settled,
  type WorkerIngest,
} from "./ingestBench";
import { produceDataset } from "./kafkaTopics";
import { fmt, log } from "./log";
import type { CpuWindow } from "./processCpu";
import { lazyFreeDone, usedMemory } from "./redisInfo";

/** Brand-new organizations the first-recording probe makes, one recording each. */
export const NEW_ORGANIZATIONS = 1000;

/** What a new organization's first recording costs Redis. */
export interface NewOrganizationProbe {
  organizations: number;
  usedMemoryDelta: number;
  /** `used_memory` Δ ÷ organizations. */
  bytesPerOrganization: number;
}

/**
 * The steady state of a multi-tenant topic: every organization already exists and gets one more
 * recording per pass; the worker reads the passes as a backlog, as it read the data set.
 */
export interface SteadyPassResult {
  passes: number;
  organizations: number;
  events: number;
  rate: RateMeasurement;
  cpu: CpuWindow;
  usedMemoryDelta: number;
  /** `used_memory` Δ ÷ events. */
  bytesPerEvent: number;
}

/**
 * `passes` more recordings of every organization: pass by pass, each organization once per pass,
 * each drawn from its own profile (its members, models, apps and zones) at a time in the data set's
 * range, with ids of their own (`<org>-steady-<n>`), so none is a duplicate.
 */
export function* steadyEvents(
  profiles: readonly OrganizationProfile[],
  passes: number,
  range: { seed: number; fromMs: number; toMs: number },
): Generator<RecordingCompletedInput> {
  const streams = profiles.map((profile) =>
    generateEvents({
      profile,
      seed: range.seed,
      fromMs: range.fromMs,
      toMs: range.toMs,
      count: passes,
      idPrefix: `${profile.organizationId}-steady`,
    })[Symbol.iterator](),
  );
  for (let pass = 0; pass < passes; pass++) {
    for (const stream of streams) {
      const next = stream.next();
      if (!next.done) yield next.value;
    }
  }
}

/** `count` organizations never seen (`<prefix>-0000`, …), one recording each, in the range's middle. */
export function* newOrganizationEvents(
  prefix: string,
  count: number,
  range: { fromMs: number; toMs: number },
): Generator<RecordingCompletedInput> {
  const atMs = Math.floor((range.fromMs + range.toMs) / 2 / 1000) * 1000;
  for (let i = 0; i < count; i++) {
    const org = `${prefix}-${String(i).padStart(4, "0")}`;
    yield recordingEvent(`${org}-first`, new Date(atMs).toISOString(), { organization_id: org });
  }
}

/**
 * Produces the new organizations' first recordings into the topic the running worker reads, waits
 * until it has taken them, and divides Redis' `used_memory` growth by their number.
 */
export async function probeNewOrganizations(input: {
  kafka: Kafka;
  topic: string;
  metricsUrl: string;
  redis: RedisClient;
  org: string;
  range: { fromMs: number; toMs: number };
}): Promise<NewOrganizationProbe> {
  const count = NEW_ORGANIZATIONS;
  log(`  new organizations: ${fmt(count)} with one recording each`);
  const before = await readWorkerMetrics(input.metricsUrl);
  await lazyFreeDone(input.redis);
  const memoryBefore = await usedMemory(input.redis);
  const events = { [Symbol.iterator]: () => newOrganizationEvents(input.org, count, input.range) };
  await produceDataset(input.kafka, input.topic, { total: count, events });
  await waitFor(async () => settled(await readWorkerMetrics(input.metricsUrl)) - settled(before) >= count, {
    timeoutMs: 120_000,
    intervalMs: METRICS_POLL_MS,
    message: "the worker to take the new organizations",
  });
  const usedMemoryDelta = (await usedMemory(input.redis)) - memoryBefore;
  return { organizations: count, usedMemoryDelta, bytesPerOrganization: usedMemoryDelta / count };
}

/**
 * The steady pass, with the worker stopped (the caller's): the passes are produced first, then a
 * worker in the same group resumes on them as a backlog and is timed as the data set's worker was.
 * Returns that worker running, for what follows.
 */
export async function runSteadyPass(input: {
  kafka: Kafka;
  ingestTopic: Omit<IngestTopic, "total">;
  redis: RedisClient;
  redisUrl: string;
  prefix: string;
  profiles: readonly OrganizationProfile[];
  passes: number;
  range: { seed: number; fromMs: number; toMs: number };
}): Promise<{ result: SteadyPassResult; ingest: WorkerIngest }> {
  const { profiles, passes } = input;
  const total = profiles.length * passes;
  log(
    `  steady state: ${fmt(passes)} pass(es) of one more recording for each of ${fmt(profiles.length)} organizations`,
  );
  const events = { [Symbol.iterator]: () => steadyEvents(profiles, passes, input.range) };
  await produceDataset(input.kafka, input.ingestTopic.topic, { total, events });
  await lazyFreeDone(input.redis);
  const memoryBefore = await usedMemory(input.redis);
  const ingest = await runWorkerIngest({
    ...input.ingestTopic,
    total,
    redis: input.redis,
    redisUrl: input.redisUrl,
    prefix: input.prefix,
    profile: false,
  });
  const usedMemoryDelta = (await usedMemory(input.redis)) - memoryBefore;
  const result: SteadyPassResult = {
    passes,
    organizations: profiles.length,
    events: total,
    rate: ingest.rate,
    cpu: ingest.cpu,
    usedMemoryDelta,
    bytesPerEvent: usedMemoryDelta / total,
  };
  log(
    `  steady state: ${fmt(result.rate.eventsPerSecond)} events/s, ${fmt(result.bytesPerEvent, 1)} Redis bytes per event`,
  );
  return { result, ingest };
}
