import { readdirSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "./paths";

/** The folders whose files are the project's code (what the docs and comment checks read). */
export const SOURCE_ROOTS = ["packages", "services", "infra", "test", "bench/src"] as const;

/** Folders that hold installed, built or generated files, not code written here. */
const SKIPPED_FOLDERS = new Set(["node_modules", "dist", "generated", "out", ".engines"]);
const SOURCE = /\.(?:ts|tsx|mts|mjs|js|lua|sh|yml|yaml)$/;

/** Every source file (TypeScript, JavaScript, Lua, shell, YAML) under the SOURCE_ROOTS, as absolute paths. */
export function sourceFiles(dir?: string): string[] {
  if (dir === undefined) return SOURCE_ROOTS.flatMap((root) => sourceFiles(join(repoRoot, root)));
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return SKIPPED_FOLDERS.has(entry.name) ? [] : sourceFiles(path);
    return entry.isFile() && SOURCE.test(entry.name) ? [path] : [];
  });
}
