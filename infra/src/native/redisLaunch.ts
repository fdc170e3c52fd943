import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { Log } from "../log";
import { sleep } from "../waitFor";
import { ensureDebianPackage, run } from "./commands";
import { fileTail } from "./fileTail";
import { livePidFromFile, readPidFile, removeFile, terminate } from "./processes";
import { redisAnswers, redisUrl } from "./redisProbe";

export interface RedisLaunchOptions {
  port: number;
  /** Working directory: AOF/RDB files, pid file and log live here. */
  dir: string;
  appendonly?: boolean;
  /** "everysec" (Redis' default) may lose the last second on a crash; "always" loses nothing. */
  appendfsync?: "always" | "everysec" | "no";
  /** Extra `--name value` pairs, e.g. for cluster mode. */
  extraArgs?: string[];
  readyTimeoutMs?: number;
  log: Log;
}

export interface RedisFiles {
  pidFile: string;
  logFile: string;
}

export function redisFiles(dir: string): RedisFiles {
  return { pidFile: join(dir, "redis.pid"), logFile: join(dir, "redis.log") };
}

/** The program name stays in a daemonized redis-server's process title, which identifies it. */
const PROGRAM = "redis-server";

/** Both binaries ship in Debian's packages: redis-server depends on redis-tools (redis-cli). */
export async function ensureRedisBinaries(log: Log): Promise<void> {
  await ensureDebianPackage("redis-server", "redis-server", log);
  await ensureDebianPackage("redis-cli", "redis-tools", log);
}

/**
 * Starts a daemonized redis-server on 127.0.0.1:<port> and resolves with its pid once it answers PING.
 * Daemonized so it outlives the command that started it (`stack:up`); the pid file is how it is found
 * and stopped later.
 */
export async function launchRedis(options: RedisLaunchOptions): Promise<number> {
  const { port, dir, appendonly = true, appendfsync = "everysec", extraArgs = [], log } = options;
  await ensureRedisBinaries(log);
  mkdirSync(dir, { recursive: true });
  const files = redisFiles(dir);
  removeFile(files.pidFile);
  await run(PROGRAM, [
    "--port",
    String(port),
    "--bind",
    "127.0.0.1",
    "--dir",
    dir,
    "--daemonize",
    "yes",
    "--pidfile",
    files.pidFile,
    "--logfile",
    files.logFile,
    "--appendonly",
    appendonly ? "yes" : "no",
    "--appendfsync",
    appendfsync,
    ...extraArgs,
  ]);
  // The foreground process exits as soon as it has forked, before the server has bound its port.
  const url = redisUrl(port);
  const deadline = Date.now() + (options.readyTimeoutMs ?? 30_000);
  for (;;) {
    const pid = readPidFile(files.pidFile);
    if (pid !== undefined && (await redisAnswers(url))) return pid;
    if (Date.now() > deadline) {
      throw new Error(
        `redis-server on port ${port} did not answer PING\n--- ${files.logFile} ---\n${fileTail(files.logFile)}`,
      );
    }
    await sleep(50);
  }
}

/** The pid of the redis-server launched in `dir`, if it still runs. */
export function redisPid(dir: string): number | undefined {
  return livePidFromFile(redisFiles(dir).pidFile, PROGRAM);
}

/**
 * Stops the redis-server launched in `dir`. SIGTERM makes Redis fsync its AOF and exit cleanly;
 * `force` SIGKILLs it to simulate a crash. Returns whether one was running.
 */
export async function stopLaunchedRedis(dir: string, force = false): Promise<boolean> {
  const pid = redisPid(dir);
  if (pid === undefined) return false;
  await terminate(pid, { force, graceMs: 30_000 });
  removeFile(redisFiles(dir).pidFile);
  return true;
}
