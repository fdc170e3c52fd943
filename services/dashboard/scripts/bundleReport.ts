import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { gzipSync } from "node:zlib";

/** The budget for everything the browser downloads, gzipped (services/dashboard/README.md). */
export const GZIP_BUDGET_BYTES = 250 * 1024;

export interface BundleReport {
  files: { file: string; bytes: number; gzipBytes: number }[];
  totalBytes: number;
  totalGzipBytes: number;
  budgetBytes: number;
  withinBudget: boolean;
}

function listFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? listFiles(path) : [path];
  });
}

/** Every file the page loads from dist/ (not the report itself), raw and gzipped (level 9). */
export function bundleReport(distDir: string): BundleReport {
  const files = listFiles(distDir)
    .filter((path) => !path.endsWith(".json"))
    .map((path) => {
      const bytes = readFileSync(path);
      return {
        file: relative(distDir, path),
        bytes: bytes.length,
        gzipBytes: gzipSync(bytes, { level: 9 }).length,
      };
    })
    .sort((a, b) => b.gzipBytes - a.gzipBytes);
  const totalBytes = files.reduce((n, f) => n + f.bytes, 0);
  const totalGzipBytes = files.reduce((n, f) => n + f.gzipBytes, 0);
  return {
    files,
    totalBytes,
    totalGzipBytes,
    budgetBytes: GZIP_BUDGET_BYTES,
    withinBudget: totalGzipBytes <= GZIP_BUDGET_BYTES,
  };
}

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;

export function formatReport(report: BundleReport): string {
  const lines = report.files.map(
    (f) => `  ${f.file.padEnd(40)} ${kb(f.bytes).padStart(10)}  gzip ${kb(f.gzipBytes).padStart(9)}`,
  );
  const verdict = report.withinBudget ? "within" : "OVER";
  return [
    "dashboard bundle:",
    ...lines,
    `  total ${kb(report.totalBytes)}, gzipped ${kb(report.totalGzipBytes)}: ${verdict} the budget of ${kb(report.budgetBytes)} gzipped`,
  ].join("\n");
}
