import { type ChildProcess, type StdioOptions, spawn } from "node:child_process";
import { repoRoot } from "../paths";

export interface ServiceProcessOptions {
  /** Extra environment on top of this process's. */
  env?: Record<string, string>;
  stdio?: StdioOptions;
}

/**
 * Runs one of the project's TypeScript entry points (e.g. `services/ingest-worker/src/main.ts`) as
 * a single node process with tsx loaded in-process. Not through the `tsx` launcher: that is a
 * parent process, and a SIGKILL sent to it leaves the real service running as an orphan, so a
 * "killed" worker would keep consuming.
 */
export function spawnService(entry: string, options: ServiceProcessOptions = {}): ChildProcess {
  return spawn(process.execPath, ["--import", "tsx", entry], {
    cwd: repoRoot,
    env: { ...process.env, ...options.env },
    stdio: options.stdio ?? ["ignore", "ignore", "inherit"],
  });
}
