// `npm run bench [-- --quick | --sizes 1000000,10000000]`: see bench/README.md.
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type RedisServerHandle, startRedisServer } from "@vu/infra";
import { createRedisClient, type RedisClient } from "@vu/store";
import { buildBenchDataset } from "./benchDataset";
import { renderChart } from "./chart";
import { OUT_DIR, REPO_ROOT } from "./childService";
import { anchorHour } from "./dataset";
import { fmt, log } from "./log";
import { machineInfo } from "./machine";
import { parseOptions } from "./options";
import { ensureDatabase } from "./postgresLoad";
import { renderReport } from "./report";
import { type BenchResults, engineMismatches, type SizeResult } from "./results";
import { runSize } from "./sizeRun";

/** Beside REPORT.md and committed with it: the raw numbers it was rendered from, to render again. */
const RESULTS_FILE = join(REPO_ROOT, "bench", "results.json");

/** REPORT.md and the chart (bench/out/latency.png, copied to bench/latency.png) from the results. */
function writeReport(results: BenchResults): void {
  // bench/out is not in git: a fresh clone re-rendering the report has none yet.
  mkdirSync(OUT_DIR, { recursive: true });
  const chartFile = join(OUT_DIR, "latency.png");
  writeFileSync(chartFile, renderChart(results));
  copyFileSync(chartFile, join(REPO_ROOT, "bench", "latency.png"));
  writeFileSync(join(REPO_ROOT, "bench", "REPORT.md"), renderReport(results));
  log("wrote bench/REPORT.md and bench/latency.png from the results");
}

function writeResults(results: BenchResults): void {
  writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
}

async function main(): Promise<void> {
  const parsed = parseOptions(process.argv.slice(2));
  if (parsed.reportOnly) {
    writeReport(JSON.parse(readFileSync(RESULTS_FILE, "utf8")) as BenchResults);
    return;
  }
  const runId = randomUUID().slice(0, 8);
  const startedAt = new Date().toISOString();
  mkdirSync(OUT_DIR, { recursive: true });
  await ensureDatabase(parsed.postgresUrl);
  const { redis, server } = await benchRedis(parsed);
  const options = { ...parsed, redisUrl: server?.url ?? parsed.redisUrl };
  try {
    const machine = await machineInfo(redis, options.postgresUrl);
    log(
      `run ${runId}: sizes ${options.sizes.map((s) => fmt(s)).join(", ")}, shapes ${options.shapes.join(", ")} ` +
        `on ${machine.cpuModel} × ${machine.cores}`,
    );
    const anchorMs = anchorHour(Date.now());
    const sizes: SizeResult[] = [];
    const resultsSoFar = (): BenchResults => ({
      runId,
      commit: commitMeasured(),
      startedAt,
      finishedAt: new Date().toISOString(),
      redis: server ? "private redis-server started by the bench" : `shared, ${options.redisUrl}`,
      connections: options.connections,
      queryDurationS: options.queryDurationS,
      throughputConnections: options.throughputConnections,
      throughputDurationS: options.throughputDurationS,
      machine,
      shapes: options.shapes,
      orgs: options.orgs,
      sizes: [...sizes],
    });
    for (const size of options.sizes) {
      for (const shape of options.shapes) {
        const dataset = buildBenchDataset(shape, size, {
          seed: options.seed,
          toMs: anchorMs,
          orgs: options.orgs,
        });
        const result = await runSize(dataset, { options, runId, redis });
        if (result) sizes.push(result);
        if (!options.ingestOnly) writeResults({ ...resultsSoFar(), partial: true });
      }
    }
    if (options.ingestOnly) return;
    const results = resultsSoFar();
    writeResults(results);
    writeReport(results);
    const mismatches = sizes.flatMap((s) => s.queries.filter((q) => q.mismatch !== null));
    if (mismatches.length > 0) {
      log(`!!! ${mismatches.length} queries returned different numbers from the API and PostgreSQL`);
      process.exitCode = 1;
    }
    const peerMismatches = sizes.flatMap((s) => engineMismatches(s.engines));
    if (peerMismatches.length > 0) {
      log(`!!! peers returned different numbers from the API: ${peerMismatches.join(", ")}`);
      process.exitCode = 1;
    }
  } finally {
    redis.disconnect();
    await server?.stop();
  }
}

/** BENCH_COMMIT when run from a snapshot (runAtCommit.sh), else the work tree's HEAD. */
function commitMeasured(): string {
  if (process.env.BENCH_COMMIT) return process.env.BENCH_COMMIT;
  try {
    const git = (...args: string[]) => execFileSync("git", args, { cwd: REPO_ROOT, encoding: "utf8" }).trim();
    const dirty = git("status", "--porcelain", "--", "packages", "services") !== "";
    return `${git("rev-parse", "--short", "HEAD")}${dirty ? " + uncommitted changes" : ""}`;
  } catch {
    return "unknown";
  }
}

/**
 * A private redis-server by default (same binary, no persistence, like the shared one): on a machine
 * where others run tests against the shared Redis, its used_memory, INFO commandstats and CPU would
 * count their work as ours. `--shared-redis` uses REDIS_URL instead, under the bench's own prefix.
 */
async function benchRedis(
  options: ReturnType<typeof parseOptions>,
): Promise<{ redis: RedisClient; server?: RedisServerHandle }> {
  if (options.sharedRedis) return { redis: createRedisClient(options.redisUrl) };
  const server = await startRedisServer({ appendonly: false });
  const redis = createRedisClient(server.url);
  // No RDB snapshots either: a fork writing gigabytes in the middle of a measurement is noise.
  await redis.config("SET", "save", "");
  log(`private redis-server on ${server.url}`);
  return { redis, server };
}

main().catch((error: unknown) => {
  log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
});
