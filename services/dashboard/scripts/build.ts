// Builds the dashboard into dist/ with Vite and checks the size budget: the build fails when the
// gzipped total is over 250 KB. `--if-stale` skips the build when dist/ was made from the current
// sources (npm start and the end-to-end tests use it). Writes dist/build-report.json.
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "vite";
import { bundleReport, formatReport } from "./bundleReport";

export const dashboardRoot = fileURLToPath(new URL("..", import.meta.url));
export const distDir = join(dashboardRoot, "dist");
const stampFile = join(distDir, "build-stamp.json");

/** A hash of everything the bundle is made from. */
function sourceHash(): string {
  const hash = createHash("sha256");
  const add = (path: string) => {
    if (statSync(path).isDirectory()) {
      for (const name of readdirSync(path).sort()) add(join(path, name));
    } else if (!/\.test\.ts$/.test(path)) {
      hash.update(path).update(readFileSync(path));
    }
  };
  for (const entry of ["src", "index.html", "vite.config.ts", "package.json"])
    add(join(dashboardRoot, entry));
  // The workspace code the page bundles (its other workspace imports are types only).
  add(fileURLToPath(import.meta.resolve("@vu/events/vocabulary")));
  return hash.digest("hex");
}

export function isBuildCurrent(): boolean {
  if (!existsSync(stampFile) || !existsSync(join(distDir, "index.html"))) return false;
  return (JSON.parse(readFileSync(stampFile, "utf8")) as { sources: string }).sources === sourceHash();
}

/** Builds unless current; throws when over budget. Logs go to stderr. */
export async function buildDashboard(options: { ifStale?: boolean } = {}): Promise<void> {
  if (options.ifStale && isBuildCurrent()) return;
  const sources = sourceHash();
  await build({ root: dashboardRoot, configFile: join(dashboardRoot, "vite.config.ts"), logLevel: "warn" });
  const report = bundleReport(distDir);
  process.stderr.write(`${formatReport(report)}\n`);
  writeFileSync(join(distDir, "build-report.json"), `${JSON.stringify(report, null, 2)}\n`);
  if (!report.withinBudget) throw new Error("the dashboard bundle is over its size budget");
  writeFileSync(stampFile, JSON.stringify({ sources }));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  buildDashboard({ ifStale: process.argv.includes("--if-stale") }).catch((error: unknown) => {
    process.stderr.write(
      `dashboard build failed: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  });
}
