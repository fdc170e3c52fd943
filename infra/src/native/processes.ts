import { existsSync, readFileSync, rmSync } from "node:fs";
import { sleep } from "../waitFor";

/**
 * True while the process exists and is not a zombie. The zombie check matters because a detached
 * broker that exits stays in the table until its parent reaps it, and `kill(pid, 0)` still succeeds.
 */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
  const stat = readProc(pid, "stat");
  if (stat === undefined) return true;
  // The state letter follows the parenthesised command name, which may itself contain spaces.
  const state = stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3);
  return state !== "Z" && state !== "X";
}

/** The command line with NULs as spaces, or undefined where /proc is not available (macOS). */
export function commandLine(pid: number): string | undefined {
  return readProc(pid, "cmdline")?.replaceAll("\0", " ");
}

function readProc(pid: number, file: string): string | undefined {
  try {
    return readFileSync(`/proc/${pid}/${file}`, "utf8");
  } catch {
    return undefined;
  }
}

export function readPidFile(path: string): number | undefined {
  if (!existsSync(path)) return undefined;
  const pid = Number.parseInt(readFileSync(path, "utf8").trim(), 10);
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

/**
 * The live process a pid file names, if it still runs the expected program. Checking the command line
 * guards against a stale pid file whose number the kernel has since given to an unrelated process.
 */
export function livePidFromFile(path: string, mustContain: string): number | undefined {
  const pid = readPidFile(path);
  if (pid === undefined || !isAlive(pid)) return undefined;
  const cmd = commandLine(pid);
  return cmd === undefined || cmd.includes(mustContain) ? pid : undefined;
}

export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() > deadline) return false;
    await sleep(50);
  }
  return true;
}

export interface TerminateOptions {
  /** How long SIGTERM gets before SIGKILL. */
  graceMs?: number;
  /** Skip SIGTERM: simulates a crash (no clean shutdown, no final fsync). */
  force?: boolean;
}

/** Stops a process and resolves once it is gone; returns false if it was not running. */
export async function terminate(pid: number, options: TerminateOptions = {}): Promise<boolean> {
  const { graceMs = 30_000, force = false } = options;
  if (!isAlive(pid)) return false;
  if (!force) {
    signal(pid, "SIGTERM");
    if (await waitForExit(pid, graceMs)) return true;
  }
  signal(pid, "SIGKILL");
  if (!(await waitForExit(pid, 10_000))) throw new Error(`process ${pid} survived SIGKILL`);
  return true;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ESRCH") throw error;
  }
}

export function removeFile(path: string): void {
  rmSync(path, { force: true });
}
