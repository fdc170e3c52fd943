import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Log, silentLog, stderrLog } from "../log";
import { stackDir } from "../paths";
import { freePort, isPortOpen } from "./ports";
import { launchRedis, redisPid, stopLaunchedRedis } from "./redisLaunch";
import { redisAnswers, redisUrl } from "./redisProbe";

export const DEFAULT_REDIS_URL = "redis://127.0.0.1:6379";

export interface EnsureRedisOptions {
  /** Default: REDIS_URL, else redis://127.0.0.1:6379. */
  url?: string;
  /** Where a Redis started here keeps its AOF, pid file and log; default <repo>/.stack/redis. */
  dataDir?: string;
  log?: Log;
}

export interface RedisInfo {
  url: string;
  /** False when a Redis already answered at the URL and was left as it was. */
  startedHere: boolean;
  port: number;
  dataDir: string;
}

/**
 * Uses the Redis at the URL when it answers PING; otherwise starts redis-server on that (local) port
 * with append-only persistence, installing Debian's package first if the binary is missing.
 */
export async function ensureRedis(options: EnsureRedisOptions = {}): Promise<RedisInfo> {
  const url = options.url ?? process.env.REDIS_URL ?? DEFAULT_REDIS_URL;
  const dataDir = options.dataDir ?? join(stackDir(), "redis");
  const log = options.log ?? stderrLog;
  // Several comma-separated URLs name a Redis Cluster; that is never started here, only checked.
  const first = url.split(",")[0]?.trim() ?? url;
  const { hostname, port: portText } = new URL(first);
  const port = Number(portText || 6379);
  if (await redisAnswers(first)) return { url, startedHere: false, port, dataDir };

  if (url.includes(",") || !isLoopback(hostname)) {
    throw new Error(
      `Redis at ${url} does not answer PING, and only a local single Redis can be started here`,
    );
  }
  if (await isPortOpen(port))
    throw new Error(`port ${port} is taken by something that does not answer as Redis`);
  log(`starting redis-server on 127.0.0.1:${port} (AOF in ${dataDir})`);
  await launchRedis({ port, dir: dataDir, appendonly: true, log });
  return { url, startedHere: true, port, dataDir };
}

/** Stops a Redis that ensureRedis started in that data dir; anything else is left alone. */
export function stopRedis(dataDir: string = join(stackDir(), "redis")): Promise<boolean> {
  return stopLaunchedRedis(dataDir);
}

function isLoopback(hostname: string): boolean {
  return hostname === "127.0.0.1" || hostname === "localhost" || hostname === "[::1]";
}

export interface StartRedisServerOptions {
  /** Default: a free port. */
  port?: number;
  /** Default: a new temporary directory, deleted by dispose(). */
  dataDir?: string;
  /** Default true. */
  appendonly?: boolean;
  /** Default "everysec"; "always" makes kill() lose no acknowledged write. */
  appendfsync?: "always" | "everysec" | "no";
  /** More `redis-server` arguments, e.g. `["--save", ""]` (snapshots only when asked for). */
  extraArgs?: string[];
  log?: Log;
}

export interface RedisServerHandle {
  readonly port: number;
  readonly url: string;
  readonly dataDir: string;
  /** The server's pid while it runs. */
  pid(): number | undefined;
  /** Starts it again after stop()/kill(), on the same port and data. */
  start(): Promise<void>;
  /** Clean shutdown (SIGTERM: the AOF is flushed). */
  stop(): Promise<void>;
  /** SIGKILL, to simulate a crash. */
  kill(): Promise<void>;
  /** stop() (or kill() with force) then start(); resolves once it answers PING again. */
  restart(options?: { force?: boolean }): Promise<void>;
  /** stop(), then delete the data dir if it was a temporary one made here. */
  dispose(): Promise<void>;
}

/** A private redis-server for a test that needs to stop, crash or restart its Redis. */
export async function startRedisServer(options: StartRedisServerOptions = {}): Promise<RedisServerHandle> {
  const port = options.port ?? (await freePort());
  const ownsDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), "vu-redis-"));
  const log = options.log ?? silentLog;
  const start = async () => {
    if (redisPid(dataDir) !== undefined && (await redisAnswers(redisUrl(port)))) return;
    await launchRedis({
      port,
      dir: dataDir,
      appendonly: options.appendonly ?? true,
      appendfsync: options.appendfsync ?? "everysec",
      extraArgs: options.extraArgs ?? [],
      log,
    });
  };
  const stop = async () => {
    await stopLaunchedRedis(dataDir);
  };
  await start();
  return {
    port,
    url: redisUrl(port),
    dataDir,
    pid: () => redisPid(dataDir),
    start,
    stop,
    kill: async () => {
      await stopLaunchedRedis(dataDir, true);
    },
    restart: async ({ force = false } = {}) => {
      await stopLaunchedRedis(dataDir, force);
      await start();
    },
    dispose: async () => {
      await stop();
      if (ownsDir) rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
