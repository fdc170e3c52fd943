import { rmSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import { createKeyspace, type RedisClient } from "@vu/store";
import { startApi } from "./apiService";
import { OUT_DIR } from "./childService";
import { dashboardQueries } from "./dashboardQueries";
import { buildDataset } from "./dataset";
import { benchEngines } from "./engineBench";
import { rawEventsFile } from "./engines/rawEventsCsv";
import { measureFreshness } from "./freshness";
import { runBareConsumer, runWorkerIngest, type WorkerIngest } from "./ingestBench";
import { benchKafka, createTopics, deleteTopics, produceDataset } from "./kafkaTopics";
import { fmt, log } from "./log";
import type { BenchOptions } from "./options";
import { dropSchema, loadPostgres } from "./postgresLoad";
import { profileOf, summarizeProfile } from "./profileSummary";
import { benchQueries } from "./queryBench";
import { redisPid, usedMemory } from "./redisInfo";
import { deleteKeyspace, memoryBreakdown } from "./redisMemory";
import type { SizeResult } from "./results";
import { benchThroughput } from "./throughputBench";

const MIB = 2 ** 20;

/**
 * One data set end to end: produce it into a fresh topic and load it into PostgreSQL, read it with
 * a bare consumer and with the worker, measure Redis, run the dashboard queries on both systems,
 * probe freshness, then remove everything it wrote (its key prefix, its topics, its schema).
 */
export async function runSize(
  size: number,
  context: { options: BenchOptions; runId: string; anchorMs: number; redis: RedisClient },
): Promise<SizeResult | undefined> {
  const { options, redis } = context;
  const runId = `${context.runId}-${size}`;
  const prefix = `bench-${runId}`;
  const keyspace = createKeyspace({ prefix });
  const kafka = benchKafka(options.kafkaBrokers, `bench-${runId}`);
  const dataset = buildDataset(size, options.seed, context.anchorMs);
  const { topic, dlqTopic } = await createTopics(options.kafkaBrokers, `bench-${runId}`);
  let worker: WorkerIngest["worker"] | undefined;
  let api: Awaited<ReturnType<typeof startApi>> | undefined;
  const csvFile = join(OUT_DIR, `raw-${runId}.csv`);
  try {
    log(`size ${fmt(size)}: producing ${fmt(dataset.total)} events into ${topic}`);
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
    const breakdown = await memoryBreakdown(redis, keyspace, memoryAfter - memoryBefore);
    const millions = dataset.total / 1e6;
    const memory = {
      ...breakdown,
      perMillion: {
        total: breakdown.usedMemoryDelta / millions,
        seen: breakdown.seen.bytes / millions,
        rollups: breakdown.rollupBytes / millions,
      },
    };
    log(
      `  Redis: +${fmt(breakdown.usedMemoryDelta / MIB)} MiB used_memory; dedupe keys ≈ ` +
        `${fmt(breakdown.seen.bytes / MIB)} MiB, rollups ${fmt(breakdown.rollupBytes / MIB)} MiB`,
    );

    if (options.ingestOnly || postgres === undefined) return undefined;
    api = await startApi({ runId, redis, redisUrl: options.redisUrl, prefix, profile: options.profile });
    const token = await api.tokenFor(dataset.large.organizationId);
    log(`  dashboard queries (${options.connections} connections, ${options.queryDurationS} s each)`);
    const dashboard = dashboardQueries(dataset);
    const { results: queries, answers } = await benchQueries(dashboard, {
      redis,
      apiPid: api.api.pid,
      redisPid: await redisPid(redis),
      baseUrl: api.baseUrl,
      token,
      postgresUrl: options.postgresUrl,
      table: `${postgres.schema}.recordings`,
      connections: options.connections,
      durationS: options.queryDurationS,
      singleStreamDurationS: options.singleStreamDurationS,
      pgMinSamples: options.pgMinSamples,
      pgMaxDurationS: options.pgMaxDurationS,
    });

    load.afterQueries = loadavg()[0] ?? 0;

    log(`  throughput: ${options.throughputConnections} connections, ${options.throughputDurationS} s each`);
    const throughput = await benchThroughput(dashboard, ["b", "f"], {
      baseUrl: api.baseUrl,
      token,
      apiPid: api.api.pid,
      redisPid: await redisPid(redis),
      connections: options.throughputConnections,
      durationS: options.throughputDurationS,
    });

    const engines = options.skipEngines
      ? []
      : await benchEngines(
          csvFile,
          dashboard.map((query) => {
            const apiAnswer = answers.get(query.id);
            if (apiAnswer === undefined) throw new Error(`no API answer for ${query.id}`);
            return { query, apiAnswer };
          }),
          {
            durationS: options.queryDurationS,
            minSamples: options.pgMinSamples,
            maxDurationS: options.pgMaxDurationS,
          },
        );
    const freshOrg = `bench-fresh-${runId}`;
    log(`  freshness: ${fmt(options.freshRate)} events/s for ${options.freshDurationS} s`);
    const freshness = await measureFreshness({
      kafka,
      topic,
      baseUrl: api.baseUrl,
      token: await api.tokenFor(freshOrg),
      org: freshOrg,
      rate: options.freshRate,
      durationS: options.freshDurationS,
    });
    log(
      `  produce-to-visible p50 ${fmt(freshness.latency.p50)} ms, p99 ${fmt(freshness.latency.p99)} ms ` +
        `at ${fmt(freshness.achievedRate)} events/s`,
    );

    const workerPid = worker.pid;
    await worker.stop();
    worker = undefined;
    const apiPid = api.api.pid;
    await api.api.stop();
    api = undefined;
    const profileDir = join(OUT_DIR, "prof");
    const workerProfile = options.profile ? profileOf(profileDir, workerPid) : undefined;
    const apiProfile = options.profile ? profileOf(profileDir, apiPid) : undefined;
    return {
      size,
      totalEvents: dataset.total,
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
          ...(workerProfile ? { profile: summarizeProfile(workerProfile) } : {}),
        },
        ratio,
      },
      memory,
      queries,
      engines,
      throughput,
      loadAverage: load,
      ...(apiProfile ? { apiProfile: summarizeProfile(apiProfile) } : {}),
      freshness,
    };
  } finally {
    await worker?.stop();
    await api?.api.stop();
    log(`  cleaning up: Redis prefix ${prefix}, topics, PostgreSQL schema, raw CSV`);
    rmSync(csvFile, { force: true });
    const deleted = await deleteKeyspace(redis, keyspace);
    log(`  unlinked ${fmt(deleted)} Redis keys`);
    await deleteTopics(kafka, [topic, dlqTopic]);
    if (!options.keepPostgres) await dropSchema(options.postgresUrl, size);
  }
}
