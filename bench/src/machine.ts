import { readdirSync, readFileSync } from "node:fs";
import { cpus, totalmem } from "node:os";
import type { RedisClient } from "@vu/store";
import pg from "pg";
import { redisVersion } from "./redisInfo";

export interface MachineInfo {
  cpuModel: string;
  cores: number;
  memoryGiB: number;
  node: string;
  redis: string;
  postgres: string;
  postgresSettings: Record<string, string>;
  kafka: string;
}

/** The broker's version from its jar name on a running JVM's command line (kafka_2.13-<version>.jar). */
function kafkaVersion(): string {
  try {
    for (const pid of readdirSync("/proc").filter((name) => /^\d+$/.test(name))) {
      try {
        const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8");
        const match = /kafka_[\d.]+-([\d.]+)\.jar/.exec(cmdline);
        if (match?.[1] && cmdline.includes("kafka.Kafka")) return match[1];
      } catch {
        // The process ended while we looked.
      }
    }
  } catch {
    // No /proc: not Linux.
  }
  return "unknown";
}

const SETTINGS = [
  "shared_buffers",
  "work_mem",
  "max_parallel_workers_per_gather",
  "jit",
  "effective_cache_size",
];

export async function machineInfo(redis: RedisClient, postgresUrl: string): Promise<MachineInfo> {
  const client = new pg.Client({ connectionString: postgresUrl });
  await client.connect();
  try {
    const version = (await client.query<{ server_version: string }>("SHOW server_version")).rows[0];
    const settings = await client.query<{ name: string; setting: string; unit: string | null }>(
      "SELECT name, setting, unit FROM pg_settings WHERE name = ANY($1)",
      [SETTINGS],
    );
    return {
      cpuModel: cpus()[0]?.model ?? "unknown",
      cores: cpus().length,
      memoryGiB: totalmem() / 2 ** 30,
      node: process.version,
      redis: await redisVersion(redis),
      postgres: version?.server_version ?? "unknown",
      postgresSettings: Object.fromEntries(
        settings.rows.map((r) => [r.name, r.unit ? `${r.setting} × ${r.unit}` : r.setting]),
      ),
      kafka: kafkaVersion(),
    };
  } finally {
    await client.end();
  }
}
