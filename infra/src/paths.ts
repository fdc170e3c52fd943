import { homedir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** Found from this file rather than the working directory, so the CLI works when run from anywhere. */
export const repoRoot: string = fileURLToPath(new URL("../../", import.meta.url));

/** Where the native stack keeps its data, pid files and state (gitignored). */
export function stackDir(): string {
  return process.env.VU_STACK_DIR ?? join(repoRoot, ".stack");
}

/**
 * Outside the work tree on purpose: the resolved broker classpath points into ~/.m2 and stays valid
 * across clones and `git clean`, so only the first run on a machine pays for Maven.
 */
export function userCacheDir(): string {
  const base = process.env.XDG_CACHE_HOME ?? join(homedir(), ".cache");
  return join(base, "vu-usage-stats");
}
