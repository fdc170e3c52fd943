import type { RedisClient } from "@vu/store";
import type { Kafka } from "kafkajs";
import type { BenchDataset } from "./benchDataset";
import type { ChildService } from "./childService";
import type { IngestTopic } from "./ingestBench";
import type { BenchOptions } from "./options";
import {
  type NewOrganizationProbe,
  probeNewOrganizations,
  runSteadyPass,
  type SteadyPassResult,
} from "./steadyPass";
import { runTwoWorkers, type TwoWorkerResult } from "./twoWorkers";

export interface TenantIngestPasses {
  newOrganizations: NewOrganizationProbe;
  twoWorkers: TwoWorkerResult;
  steady: SteadyPassResult;
  /** The data set's worker, resumed for the steady pass: still running, for what follows. */
  worker: ChildService;
  metricsUrl: string;
}

/**
 * The multi-tenant set's ingest passes after its queries were checked (the API, PostgreSQL and
 * the peers compared on the data set alone, so nothing here needs loading into them): the new
 * organizations' first recordings; with the data set's worker stopped, two workers of their own
 * reading the whole topic into a prefix of their own; then the steady pass, which the data set's
 * worker, resumed in its group, reads as a backlog under the data set's prefix.
 */
export async function runTenantIngestPasses(input: {
  dataset: BenchDataset;
  options: BenchOptions;
  redis: RedisClient;
  kafka: Kafka;
  ingestTopic: Omit<IngestTopic, "total">;
  prefix: string;
  worker: ChildService;
  metricsUrl: string;
}): Promise<TenantIngestPasses> {
  const { dataset, options, redis, kafka, ingestTopic, prefix } = input;
  const range = { seed: options.seed, fromMs: dataset.fromMs, toMs: dataset.toMs };
  const newOrganizations = await probeNewOrganizations({
    kafka,
    topic: ingestTopic.topic,
    metricsUrl: input.metricsUrl,
    redis,
    org: `bench-new-${ingestTopic.runId}`,
    range,
  });
  await input.worker.stop();
  const twoWorkers = await runTwoWorkers({
    ...ingestTopic,
    kafka,
    redis,
    redisUrl: options.redisUrl,
    prefix: `${prefix}-two`,
  });
  const { result: steady, ingest } = await runSteadyPass({
    kafka,
    ingestTopic,
    redis,
    redisUrl: options.redisUrl,
    prefix,
    profiles: dataset.profiles ?? [],
    passes: options.steadyPasses,
    range,
  });
  return { newOrganizations, twoWorkers, steady, worker: ingest.worker, metricsUrl: ingest.metricsUrl };
}
