import { rmSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { createKeyspace, type RedisClient } from "@vu/store";
import type { Kafka } from "kafkajs";
import { type RunningApi, startApi } from "./apiService";
import type { BenchDataset } from "./benchDataset";
import { OUT_DIR } from "./childService";
import { type DashboardQuery, organizationQueries } from "./dashboardQueries";
import { benchEngines } from "./engineBench";
import { rawEventsFile } from "./engines/rawEventsCsv";
import { measureFreshness } from "./freshness";
import { loadHeavyOrganization } from "./heavyOrganization";
import { runBareConsumer, runWorkerIngest, type WorkerIngest } from "./ingestBench";
import { benchKafka, createTopics, deleteTopics, produceDataset } from "./kafkaTopics";
import { fmt, log } from "./log";
import { benchNoisyNeighbour } from "./noisyNeighbour";
import type { BenchOptions } from "./options";
import { benchOrganizations } from "./organizationQueries";
import { dropSchema, loadPostgres } from "./postgresLoad";
import { profileOf, summarizeProfile } from "./profileSummary";
import { lazyFreeDone, redisPid, usedMemory } from "./redisInfo";
import { bytesPerEvent, deleteKeyspace, memoryBreakdown } from "./redisMemory";
import type { SizeResult } from "./results";
import { FRESHNESS_LOAD_SHARE } from "./targetBounds";
import { runTenantIngestPasses } from "./tenantIngest";
import { benchThroughput } from "./throughputBench";
import { benchUnderIngest } from "./underIngest";

const MIB = 2 ** 20;
/**
 * Rollup keys whose payload (cells) is read after the ingest; beyond it a sample is read and scaled
 * (redisMemory.ts), so the split stays affordable at 10M recordings over 10,000 organizations.
 */
const PAYLOAD_KEYS = 50_000;

/**
 * One data set end to end: produce it into a fresh topic and load it into PostgreSQL, read it with
 * a bare consumer and with the worker, measure Redis, run the dashboard queries on both systems
 * for each organization the data set names, probe freshness, then remove everything it wrote (its
 * key prefix, its topics, its schema).
 */
export async function runSize(
  dataset: BenchDataset,
  context: { options: BenchOptions; runId: string; redis: RedisClient },
): Promise<SizeResult | undefined> {
  const { options, redis } = context;
  const { size } = dataset;
  const runId = `${context.runId}-${dataset.key}`;
  const prefix = `bench-${runId}`;
  const keyspace = createKeyspace({ prefix });
  const kafka = benchKafka(options.kafkaBrokers, `bench-${runId}`);
  const { topic, dlqTopic } = await createTopics(options.kafkaBrokers, `bench-${runId}`);
  let worker: WorkerIngest["worker"] | undefined;
  let api: Awaited<ReturnType<typeof startApi>> | undefined;
  const csvFile = join(OUT_DIR, `raw-${runId}.csv`);
  try {
    log(
      `size ${fmt(size)}, ${dataset.shape} (${fmt(dataset.organizations)} organizations): ` +
        `producing ${fmt(dataset.total)} events into ${topic}`,
    );
    const produce = await produceDataset(kafka, topic, dataset);
    log(`  produced in ${fmt(produce.seconds, 1)} s (${fmt(produce.eventsPerSecond)} events/s)`);

    // PostgreSQL first: its CPU-heavy load must not overlap the ingest measurement.
    if (options.ingestOnly) log("  --ingest-only: no PostgreSQL, queries or freshness");
    else log("  loading PostgreSQL (COPY, index, VACUUM ANALYZE)");
    const postgres = options.ingestOnly ? undefined : await loadPostgres(options.postgresUrl, dataset);
    if (postgres)
      log(
        `  PostgreSQL: COPY ${fmt(postgres.copySeconds, 1)} s, index ${fmt(postgres.indexSeconds, 1)} s, ` +
          `analyze ${fmt(postgres.analyzeSeconds, 1)} s; table ${fmt(postgres.tableBytes / MIB)} MiB, ` +
          `index ${fmt(postgres.indexBytes / MIB)} MiB`,
      );

    if (!options.ingestOnly && !options.skipEngines) {
      log("  writing the raw events as CSV for DuckDB and ClickHouse");
      await rawEventsFile(dataset, csvFile);
    }

    const ingestTopic = { brokers: options.kafkaBrokers, topic, dlqTopic, total: dataset.total, runId };
    log("  bare kafkajs consumer reading the topic");
    const bare = await runBareConsumer(ingestTopic);
    log(`  bare consumer: ${fmt(bare.rate.eventsPerSecond)} events/s`);

    const load: Record<string, number> = { beforeIngest: loadavg()[0] ?? 0 };
    log("  ingest worker reading the topic into Redis");
    await lazyFreeDone(redis);
    const memoryBefore = await usedMemory(redis);
    const ingest = await runWorkerIngest({
      ...ingestTopic,
      redis,
      redisUrl: options.redisUrl,
      prefix,
      profile: options.profile,
    });
    worker = ingest.worker;
    const memoryAfter = await usedMemory(redis);
    load.afterIngest = loadavg()[0] ?? 0;
    const ratio = ingest.rate.eventsPerSecond / bare.rate.eventsPerSecond;
    log(`  worker: ${fmt(ingest.rate.eventsPerSecond)} events/s, ${fmt(ratio, 2)} of the bare consumer`);
    const cores = Object.entries(ingest.cpu.cores).map(([name, c]) => `${name} ${fmt(c, 2)}`);
    log(`  cores used: ${cores.join(", ")}, machine ${fmt(ingest.cpu.machineCores, 2)}`);

    log("  measuring Redis memory");
    const breakdown = await memoryBreakdown(redis, keyspace, memoryAfter - memoryBefore, {
      payload: true,
      payloadKeys: PAYLOAD_KEYS,
    });
    const millions = dataset.total / 1e6;
    const perEvent = bytesPerEvent(breakdown, dataset.total);
    const memory = {
      ...breakdown,
      perMillion: {
        total: breakdown.usedMemoryDelta / millions,
        seen: breakdown.seen.bytes / millions,
        rollups: breakdown.rollupBytes / millions,
      },
      perEvent,
    };
    const sample = breakdown.cellSample;
    log(
      `  Redis: +${fmt(breakdown.usedMemoryDelta / MIB)} MiB used_memory; dedupe keys ≈ ` +
        `${fmt(breakdown.seen.bytes / MIB)} MiB, rollups ${fmt(breakdown.rollupBytes / MIB)} MiB; ` +
        `${fmt(perEvent.total, 1)} bytes per event: cells ${fmt(perEvent.cells, 1)}` +
        `${sample ? ` (sampled: ${fmt(sample.keys)} of ${fmt(sample.of)} rollup keys read)` : ""}, ` +
        `key overhead ${fmt(perEvent.keyOverhead, 1)}`,
    );

    if (options.ingestOnly || postgres === undefined) return undefined;
    api = await startApi({ runId, redis, redisUrl: options.redisUrl, prefix, profile: options.profile });
    const dashboard = organizationQueries(dataset);
    const { results: queries, answers } = await benchOrganizations(dataset, dashboard, {
      options,
      redis,
      api,
      table: `${postgres.schema}.recordings`,
    });

    load.afterQueries = loadavg()[0] ?? 0;
    const underIngest = options.skipUnderIngest
      ? undefined
      : await benchUnderIngest({
          dataset,
          dashboard,
          api,
          kafkaBrokers: options.kafkaBrokers,
          topic,
          runId,
          metricsUrl: ingest.metricsUrl,
          workerRate: ingest.rate.eventsPerSecond,
          connections: options.connections,
          durationS: options.queryDurationS,
        });
    const noisyNeighbour = await noisyNeighbourOf(dataset, {
      api,
      redis,
      options,
      kafka,
      topic,
      metricsUrl: ingest.metricsUrl,
    });

    const single = dataset.shape === "single";
    const throughputToken = single
      ? await api.tokenFor(dataset.queried[0]?.profile.organizationId ?? "")
      : "";
    const throughput = single
      ? await singleThroughput(dashboard, ["b", "f"], {
          options,
          baseUrl: api.baseUrl,
          opsUrl: api.opsUrl,
          token: throughputToken,
          apiPid: api.api.pid,
          redisPid: await redisPid(redis),
        })
      : [];
    const throughputOneProcess = single
      ? await oneProcessThroughput(dashboard, { options, runId, redis, prefix, token: throughputToken })
      : undefined;

    const engines = await benchEngines(
      { csvFile, postgres: { url: options.postgresUrl, schema: postgres.schema } },
      dashboard.map((query) => {
        const apiAnswer = answers.get(query.id);
        if (apiAnswer === undefined) throw new Error(`no API answer for ${query.id}`);
        return { query, apiAnswer };
      }),
      {
        durationS: options.queryDurationS,
        minSamples: options.pgMinSamples,
        maxDurationS: options.pgMaxDurationS,
        embedded: !options.skipEngines,
      },
    );
    const passes =
      dataset.shape === "many"
        ? await runTenantIngestPasses({
            dataset,
            options,
            redis,
            kafka,
            ingestTopic: { brokers: options.kafkaBrokers, topic, dlqTopic, runId },
            prefix,
            worker,
            metricsUrl: ingest.metricsUrl,
          })
        : undefined;
    if (passes) worker = passes.worker;

    const freshOrg = `bench-fresh-${runId}`;
    // Half the worker's own rate on the backlog (the freshness target's load), unless --fresh-rate names one.
    const workerRate = ingest.rate.eventsPerSecond;
    const freshRate = options.freshRate ?? Math.ceil(FRESHNESS_LOAD_SHARE * workerRate);
    log(`  freshness: ${fmt(freshRate)} events/s for ${options.freshDurationS} s`);
    const measured = await measureFreshness({
      kafka,
      topic,
      baseUrl: api.baseUrl,
      token: await api.tokenFor(freshOrg),
      org: freshOrg,
      rate: freshRate,
      durationS: options.freshDurationS,
    });
    const freshness = options.freshRate === undefined ? { ...measured, workerRate } : measured;
    log(
      `  produce-to-visible p50 ${fmt(freshness.latency.p50)} ms, p99 ${fmt(freshness.latency.p99)} ms ` +
        `at ${fmt(freshness.achievedRate)} events/s`,
    );

    // The data set's worker: the one profiled (a steady pass resumes it in a process of its own).
    const workerPid = ingest.worker.pid;
    await worker.stop();
    worker = undefined;
    const apiPid = api.api.pid;
    await api.api.stop();
    api = undefined;
    const profileDir = join(OUT_DIR, "prof");
    const workerProfile = options.profile ? profileOf(profileDir, workerPid) : undefined;
    const apiProfile = options.profile ? profileOf(profileDir, apiPid) : undefined;
    return {
      shape: dataset.shape,
      size,
      totalEvents: dataset.total,
      organizations: dataset.organizations,
      queried: dataset.queried.map(({ role, profile, count }) => ({
        role,
        organizationId: profile.organizationId,
        recordings: count,
      })),
      from: new Date(dataset.fromMs).toISOString(),
      to: new Date(dataset.toMs).toISOString(),
      produce,
      postgres,
      ingest: {
        bare,
        worker: {
          rate: ingest.rate,
          metrics: ingest.metrics,
          cpu: ingest.cpu,
          redisCommands: ingest.redisCommands,
          metricsPollMs: ingest.metricsPollMs,
          ...(workerProfile ? { profile: summarizeProfile(workerProfile) } : {}),
        },
        ratio,
      },
      memory,
      queries,
      engines,
      throughput,
      ...(throughputOneProcess ? { throughputOneProcess } : {}),
      ...(underIngest ? { underIngest } : {}),
      ...(noisyNeighbour ? { noisyNeighbour } : {}),
      loadAverage: load,
      ...(apiProfile ? { apiProfile: summarizeProfile(apiProfile) } : {}),
      freshness,
      ...(passes
        ? { newOrganizations: passes.newOrganizations, steady: passes.steady, twoWorkers: passes.twoWorkers }
        : {}),
    };
  } finally {
    await worker?.stop();
    await api?.api.stop();
    log(`  cleaning up: Redis prefix ${prefix}, topics, PostgreSQL schema, raw CSV`);
    rmSync(csvFile, { force: true });
    const deleted = await deleteKeyspace(redis, keyspace);
    log(`  unlinked ${fmt(deleted)} Redis keys`);
    await deleteTopics(kafka, [topic, dlqTopic]);
    if (!options.keepPostgres) await dropSchema(options.postgresUrl, dataset.key);
  }
}

/**
 * The multi-tenant set's smallest organization beside a heavy organization made for it:
 * 100,000 recordings, each its own member and app, produced into the topic the worker reads and
 * applied before the phases, so that the heavy answer has a row per recording.
 */
async function noisyNeighbourOf(
  dataset: BenchDataset,
  context: {
    api: RunningApi;
    redis: RedisClient;
    options: BenchOptions;
    kafka: Kafka;
    topic: string;
    metricsUrl: string;
  },
) {
  const { api, options } = context;
  const smallest = dataset.queried.find((q) => q.role === "smallest")?.profile.organizationId;
  if (dataset.shape !== "many" || smallest === undefined) return undefined;
  const heavyLoad = await loadHeavyOrganization({ ...context, toMs: dataset.toMs });
  return benchNoisyNeighbour({
    baseUrl: api.baseUrl,
    redis: context.redis,
    small: { org: smallest, token: await api.tokenFor(smallest) },
    heavy: { org: heavyLoad.org, token: await api.tokenFor(heavyLoad.org) },
    heavyLoad,
    toMs: dataset.toMs,
    durationS: options.queryDurationS,
  });
}

/**
 * The 200-connection run on the single set's (b) and (f) and `/stats/dimensions`; its targets are
 * the single set's, so the multi-tenant set's runs leave it out.
 */
function singleThroughput(
  dashboard: readonly DashboardQuery[],
  ids: readonly string[],
  input: {
    options: BenchOptions;
    baseUrl: string;
    opsUrl: string;
    token: string;
    apiPid: number;
    redisPid: number;
  },
) {
  const { options } = input;
  log(`  throughput: ${options.throughputConnections} connections, ${options.throughputDurationS} s each`);
  return benchThroughput(dashboard, ids, {
    baseUrl: input.baseUrl,
    opsUrl: input.opsUrl,
    token: input.token,
    apiPid: input.apiPid,
    redisPid: input.redisPid,
    connections: options.throughputConnections,
    durationS: options.throughputDurationS,
  });
}

/** Threads or processes: the cached (b) on one API process; the report's text says why. */
async function oneProcessThroughput(
  dashboard: readonly DashboardQuery[],
  input: { options: BenchOptions; runId: string; redis: RedisClient; prefix: string; token: string },
) {
  const { options, runId, redis, prefix } = input;
  const one = await startApi({
    runId,
    redis,
    redisUrl: options.redisUrl,
    prefix,
    profile: false,
    processes: 1,
    name: `query-api-one-process-${runId}`,
  });
  try {
    log("  throughput on one API process (API_PROCESSES=1):");
    return await singleThroughput(dashboard, ["b"], {
      options,
      baseUrl: one.baseUrl,
      opsUrl: one.opsUrl,
      token: input.token,
      apiPid: one.api.pid,
      redisPid: await redisPid(redis),
    });
  } finally {
    await one.api.stop();
  }
}
