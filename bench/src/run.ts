// `npm run bench [-- --quick | --sizes 1000000,10000000]`: see bench/README.md.
import { randomUUID } from "node:crypto";
import { copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRedisClient } from "@vu/store";
import { renderChart } from "./chart";
import { OUT_DIR, REPO_ROOT } from "./childService";
import { anchorHour } from "./dataset";
import { fmt, log } from "./log";
import { machineInfo } from "./machine";
import { parseOptions } from "./options";
import { ensureDatabase } from "./postgresLoad";
import { renderReport } from "./report";
import type { BenchResults, SizeResult } from "./results";
import { runSize } from "./sizeRun";

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const runId = randomUUID().slice(0, 8);
  const startedAt = new Date().toISOString();
  mkdirSync(OUT_DIR, { recursive: true });
  await ensureDatabase(options.postgresUrl);
  const redis = createRedisClient(options.redisUrl);
  try {
    const machine = await machineInfo(redis, options.postgresUrl);
    log(
      `run ${runId}: sizes ${options.sizes.map((s) => fmt(s)).join(", ")} on ${machine.cpuModel} × ${machine.cores}`,
    );
    const anchorMs = anchorHour(Date.now());
    const sizes: SizeResult[] = [];
    for (const size of options.sizes) {
      sizes.push(await runSize(size, { options, runId, anchorMs, redis }));
    }
    const results: BenchResults = {
      runId,
      startedAt,
      finishedAt: new Date().toISOString(),
      connections: options.connections,
      queryDurationS: options.queryDurationS,
      machine,
      sizes,
    };
    writeFileSync(join(OUT_DIR, "results.json"), `${JSON.stringify(results, null, 2)}\n`);
    const chartFile = join(OUT_DIR, "latency.png");
    writeFileSync(chartFile, renderChart(results));
    copyFileSync(chartFile, join(REPO_ROOT, "bench", "latency.png"));
    writeFileSync(join(REPO_ROOT, "bench", "REPORT.md"), renderReport(results));
    log("wrote bench/REPORT.md, bench/latency.png and bench/out/results.json");
    const mismatches = sizes.flatMap((s) => s.queries.filter((q) => q.mismatch !== null));
    if (mismatches.length > 0) {
      log(`!!! ${mismatches.length} queries returned different numbers from the API and PostgreSQL`);
      process.exitCode = 1;
    }
  } finally {
    redis.disconnect();
  }
}

main().catch((error: unknown) => {
  log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
});
