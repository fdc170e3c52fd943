import { execFile } from "node:child_process";
import type { Log } from "../log";

export interface RunResult {
  stdout: string;
  stderr: string;
}

/** Runs a program without a shell; a failure carries its stderr so the cause is visible. */
export function run(
  file: string,
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    execFile(
      file,
      args,
      { cwd: options.cwd, env: options.env, timeout: options.timeoutMs ?? 0, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) => {
        if (error) {
          const detail = `${stderr}${stdout}`.trim().split("\n").slice(-30).join("\n");
          reject(
            new Error(`${file} ${args.join(" ")} failed: ${error.message}\n${detail}`, { cause: error }),
          );
          return;
        }
        resolve({ stdout, stderr });
      },
    );
  });
}

export async function hasCommand(command: string): Promise<boolean> {
  try {
    await run("sh", ["-c", `command -v ${command}`]);
    return true;
  } catch {
    return false;
  }
}

/**
 * Makes a command available on a Debian machine by installing its package; the project may not rely
 * on anything installed by hand, so a fresh machine must be able to fetch what it needs itself.
 */
export async function ensureDebianPackage(command: string, pkg: string, log: Log): Promise<void> {
  if (await hasCommand(command)) return;
  const isRoot = process.getuid?.() === 0;
  if (!isRoot || !(await hasCommand("apt-get"))) {
    throw new Error(
      `'${command}' is not installed; install the '${pkg}' package (e.g. apt-get install ${pkg})`,
    );
  }
  log(`'${command}' is missing; installing Debian package ${pkg} ...`);
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  await run("apt-get", ["update"], { env });
  await run("apt-get", ["install", "-y", "--no-install-recommends", pkg], { env });
  if (!(await hasCommand(command))) throw new Error(`installed ${pkg} but '${command}' is still missing`);
}
