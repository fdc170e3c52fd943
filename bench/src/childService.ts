import { type ChildProcess, spawn } from "node:child_process";
import { closeSync, mkdirSync, openSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { waitFor } from "@vu/infra";

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
export const OUT_DIR = join(REPO_ROOT, "bench", "out");

export interface ChildService {
  name: string;
  pid: number;
  process: ChildProcess;
  /** SIGTERM (the service's graceful path), SIGKILL if it has not exited within the grace time. */
  stop(graceMs?: number): Promise<void>;
}

export interface StartOptions {
  name: string;
  /** Path from the repository root, run as `node --import tsx <script>` (one process, no tsx wrapper). */
  script: string;
  env: Record<string, string>;
  nodeArgs?: string[];
  /** Capture stdout in memory instead of the log file (the bare consumer reports there). */
  onStdout?: (chunk: string) => void;
}

/** Services still running: stopped with the bench, however it ends. */
const running = new Set<ChildProcess>();
let hooked = false;

/**
 * A bench stopped by Ctrl-C or SIGTERM takes its services with it: left running, an API's cluster
 * primary would go on restarting its processes, and a worker would go on consuming.
 */
function stopChildrenWithTheBench(): void {
  if (hooked) return;
  hooked = true;
  const stopAll = () => {
    for (const child of running) child.kill("SIGTERM");
  };
  process.on("exit", stopAll);
  for (const [signal, code] of [
    ["SIGINT", 130],
    ["SIGTERM", 143],
  ] as const) {
    process.once(signal, () => {
      stopAll();
      process.exit(code);
    });
  }
}

/**
 * The real services run as child processes, as deployed, so the bench measures their own start-up
 * config, logging and event loop rather than a copy wired up in the bench's process. Output goes
 * to `bench/out/logs/<name>.log`.
 */
export function startChild(options: StartOptions): ChildService {
  const logFile = join(OUT_DIR, "logs", `${options.name}.log`);
  mkdirSync(dirname(logFile), { recursive: true });
  const fd = openSync(logFile, "a");
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), "--import", "tsx", options.script], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...options.env },
    stdio: ["ignore", options.onStdout ? "pipe" : fd, fd],
  });
  closeSync(fd);
  running.add(child);
  child.once("exit", () => running.delete(child));
  stopChildrenWithTheBench();
  if (options.onStdout) {
    const onStdout = options.onStdout;
    child.stdout?.setEncoding("utf8").on("data", (chunk: string) => onStdout(chunk));
  }
  const pid = child.pid;
  if (pid === undefined) throw new Error(`${options.name} did not start`);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null) resolve();
    else child.once("exit", () => resolve());
  });
  return {
    name: options.name,
    pid,
    process: child,
    async stop(graceMs = 20_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Polls an HTTP endpoint until it answers 200, failing early if the process died. */
export async function waitForHttp(child: ChildService, url: string, timeoutMs = 60_000): Promise<void> {
  await waitFor(
    async () => {
      if (child.process.exitCode !== null) {
        throw new Error(`${child.name} exited with ${child.process.exitCode}; see bench/out/logs`);
      }
      const res = await fetch(url);
      return res.status === 200;
    },
    { timeoutMs, intervalMs: 200, message: `${child.name} at ${url}` },
  );
}
