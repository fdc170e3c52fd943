import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { REPO_ROOT } from "../childService";
import { log } from "../log";

/**
 * The embedded analytics engines the bench compares against, pinned. They are not workspace
 * dependencies: chdb alone is ~550 MB installed, so `npm test` and CI never fetch them; the bench
 * installs them into `bench/.engines/` (git-ignored) the first time it needs them.
 */
export const ENGINE_PACKAGES = {
  "@duckdb/node-api": "1.5.6-r.1",
  chdb: "3.4.0",
} as const;

export type EnginePackage = keyof typeof ENGINE_PACKAGES;

export const ENGINES_DIR = join(REPO_ROOT, "bench", ".engines");

function installed(): boolean {
  const manifest = join(ENGINES_DIR, "package.json");
  if (!existsSync(manifest)) return false;
  const { dependencies = {} } = JSON.parse(readFileSync(manifest, "utf8")) as {
    dependencies?: Record<string, string>;
  };
  return Object.entries(ENGINE_PACKAGES).every(
    ([name, version]) =>
      dependencies[name] === version && existsSync(join(ENGINES_DIR, "node_modules", name)),
  );
}

/** Installs the pinned engines with npm when they are missing or at another version. */
export function ensureEngines(): void {
  if (installed()) return;
  mkdirSync(ENGINES_DIR, { recursive: true });
  writeFileSync(
    join(ENGINES_DIR, "package.json"),
    `${JSON.stringify({ name: "vu-bench-engines", private: true, dependencies: ENGINE_PACKAGES }, null, 2)}\n`,
  );
  log(`installing the comparison engines into ${ENGINES_DIR} (first use; ~600 MB)`);
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error"], {
    cwd: ENGINES_DIR,
    stdio: "inherit",
  });
}

/** Imports an engine from `bench/.engines/`, installing it first if needed. */
export async function importEngine(name: EnginePackage): Promise<unknown> {
  ensureEngines();
  const require = createRequire(join(ENGINES_DIR, "package.json"));
  return import(pathToFileURL(require.resolve(name)).href);
}
