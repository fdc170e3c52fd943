import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Log, silentLog } from "../log";
import { waitFor } from "../waitFor";
import { run } from "./commands";
import { canBind } from "./ports";
import { ensureRedisBinaries, launchRedis, stopLaunchedRedis } from "./redisLaunch";
import { redisCommand, redisUrl } from "./redisProbe";

export interface StartRedisClusterOptions {
  /** The masters take basePort, basePort+1, basePort+2; default: free ports. */
  basePort?: number;
  /** Default: a new temporary directory, deleted by stop(). */
  dataDir?: string;
  log?: Log;
}

export interface RedisClusterNode {
  host: string;
  port: number;
}

export interface RedisClusterHandle {
  nodes: RedisClusterNode[];
  /** Comma-separated node URLs: the REDIS_URL form that means "cluster" to @vu/store. */
  url: string;
  stop(): Promise<void>;
}

const MASTERS = 3;
/** Redis Cluster talks node-to-node on the client port + 10000. */
const BUS_OFFSET = 10_000;

/**
 * Three masters (no replicas) joined with `redis-cli --cluster create`, for tests that must prove the
 * store's keys stay within one hash slot per script. Resolves once every node reports cluster_state:ok.
 */
export async function startRedisCluster(options: StartRedisClusterOptions = {}): Promise<RedisClusterHandle> {
  const log = options.log ?? silentLog;
  await ensureRedisBinaries(log);
  const ownsDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "vu-redis-cluster-"));
  const ports = options.basePort === undefined ? await freeClusterPorts() : range(options.basePort);
  const members = ports.map((port) => ({ port, dir: join(dataDir, `node-${port}`) }));
  const stop = async () => {
    await Promise.all(members.map(({ dir }) => stopLaunchedRedis(dir)));
    if (ownsDir) rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    await Promise.all(
      members.map(({ port, dir }) =>
        launchRedis({
          port,
          dir,
          appendonly: true,
          extraArgs: [
            "--cluster-enabled",
            "yes",
            "--cluster-config-file",
            "nodes.conf",
            "--cluster-node-timeout",
            "5000",
          ],
          log,
        }),
      ),
    );
    const addresses = ports.map((port) => `127.0.0.1:${port}`);
    await run(
      "redis-cli",
      ["--cluster", "create", ...addresses, "--cluster-replicas", "0", "--cluster-yes"],
      {
        timeoutMs: 60_000,
      },
    );
    await waitFor(async () => (await Promise.all(ports.map(clusterOk))).every(Boolean), {
      timeoutMs: 30_000,
      intervalMs: 100,
      message: `cluster_state:ok on ports ${ports.join(", ")}`,
    });
  } catch (error) {
    await stop();
    throw error;
  }
  return {
    nodes: ports.map((port) => ({ host: "127.0.0.1", port })),
    url: ports.map((port) => redisUrl(port)).join(","),
    stop,
  };
}

async function clusterOk(port: number): Promise<boolean> {
  const info = await redisCommand(redisUrl(port), "CLUSTER", ["INFO"]);
  return typeof info === "string" && info.includes("cluster_state:ok");
}

function range(base: number): number[] {
  return Array.from({ length: MASTERS }, (_, i) => base + i);
}

/** Consecutive ports whose bus ports are free too, picked at random to avoid parallel runs colliding. */
async function freeClusterPorts(): Promise<number[]> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 30_000);
    const ports = range(base);
    const all = [...ports, ...ports.map((port) => port + BUS_OFFSET)];
    const free = await Promise.all(all.map((port) => canBind(port)));
    if (free.every(Boolean)) return ports;
  }
  throw new Error("found no free ports for a Redis Cluster");
}
