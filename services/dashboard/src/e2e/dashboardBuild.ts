import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const dashboardRoot = fileURLToPath(new URL("../..", import.meta.url));
const tsx = join(dashboardRoot, "..", "..", "node_modules", ".bin", "tsx");

/**
 * Builds the dashboard unless dist/ matches the sources (scripts/build.ts --if-stale), in its own
 * process: Vite's build stays out of the test runner's module graph.
 */
export async function ensureDashboardBuilt(): Promise<void> {
  await promisify(execFile)(tsx, [join(dashboardRoot, "scripts", "build.ts"), "--if-stale"], {
    cwd: dashboardRoot,
    timeout: 240_000,
  });
}
