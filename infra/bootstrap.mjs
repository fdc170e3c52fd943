// Installs the workspace's dependencies on a fresh clone, with no global tools assumed beyond Node.js
// and npm: pnpm itself comes from the npm registry at the version pinned in package.json.
// Runs before `npm start`, `npm test`, ... and is a no-op when node_modules matches the lockfile.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const { packageManager } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const lockfile = join(root, "pnpm-lock.yaml");
const stamp = join(root, "node_modules", ".bootstrap-stamp");

// Any manifest change (a dependency added to one package) or lockfile change means reinstalling.
const manifests = () => [
  "package.json",
  ...["packages", "services"].flatMap((dir) =>
    readdirSync(join(root, dir)).map((name) => join(dir, name, "package.json")),
  ),
  "infra/package.json",
  "test/package.json",
  "bench/package.json",
];
const fingerprint = () => {
  const hash = createHash("sha256").update(existsSync(lockfile) ? readFileSync(lockfile) : "no lockfile");
  for (const file of manifests()) {
    if (existsSync(join(root, file))) hash.update(file).update(readFileSync(join(root, file)));
  }
  return hash.digest("hex");
};
// `npm test` drives the dashboard in headless Chromium (Debian's package, never a downloaded
// browser). Install it here, before the test runner's time limits apply; where that cannot be done,
// say what to install (the dashboard's end-to-end test then fails with the same advice).
function ensureChromium() {
  if (process.env.CHROMIUM_PATH || existsSync("/usr/bin/chromium")) return;
  const hasAptGet = spawnSync("sh", ["-c", "command -v apt-get"]).status === 0;
  if (process.getuid?.() !== 0 || !hasAptGet) {
    console.error(
      "[bootstrap] Chromium is missing and cannot be installed here (needs root and apt-get): " +
        "install Debian's 'chromium' package, or set CHROMIUM_PATH to a Chromium executable.",
    );
    return;
  }
  console.error("[bootstrap] installing Debian's chromium package for the dashboard's browser tests ...");
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  execFileSync("apt-get", ["update"], { stdio: "inherit", env });
  execFileSync("apt-get", ["install", "-y", "--no-install-recommends", "chromium"], {
    stdio: "inherit",
    env,
  });
}
if (process.env.npm_lifecycle_event === "pretest") ensureChromium();

if (existsSync(stamp) && readFileSync(stamp, "utf8") === fingerprint()) process.exit(0);

const args = ["--yes", packageManager, "install"];
if (existsSync(lockfile) && process.env.CI) args.push("--frozen-lockfile");
console.error(`[bootstrap] installing dependencies with ${packageManager} ...`);
execFileSync("npx", args, { cwd: root, stdio: "inherit" });
writeFileSync(stamp, fingerprint());
