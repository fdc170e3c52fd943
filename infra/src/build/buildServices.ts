// `npm run build`: compiles what the Docker images run (tsconfig.build.json: the worker and the API,
// their CLIs and every workspace package they import) to JavaScript with tsc, and lays it out so
// plain `node --conditions=vu-dist` runs it:
//   - each package's output goes to its own dist/ (packages/store/src/x.ts → packages/store/dist/x.js),
//     which the `vu-dist` condition of its package.json `exports` names (default: the TS source,
//     so tsx, vitest, tsc and madge keep reading src/ with no flag);
//   - the Lua scripts the store reads beside its modules (`new URL("./lua/…", import.meta.url)`)
//     are copied next to the built modules;
//   - relative import specifiers get the `.js` (or `/index.js`) that Node's ESM loader requires
//     (the sources import extensionless, which only bundler-style resolution accepts).
// Development never needs this: `npm run worker` / `npm run api` run the sources with tsx.
import { execFileSync } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { repoRoot } from "../paths";

/** Files copied from a package's src/ to its dist/ as they are (read at runtime beside the modules). */
const ASSET = /\.lua$/;

const SPECIFIER = /(\bfrom\s*|\bimport\s*|\bimport\s*\(\s*)(["'])(\.{1,2}\/[^"'\n]*)\2/g;

/**
 * Adds what Node's ESM resolution needs to every relative specifier in `code` (a module in `dir`):
 * `./app` → `./app.js`, `./http` → `./http/index.js`. Throws on one that names no emitted file, so a
 * build never produces a module that fails at its first import.
 */
export function addJsExtensions(
  code: string,
  dir: string,
  exists: (path: string) => boolean = existsSync,
): string {
  return code.replace(SPECIFIER, (match, lead: string, quote: string, specifier: string) => {
    if (/\.(m?js|cjs|json)$/.test(specifier)) return match;
    for (const suffix of [".js", "/index.js"]) {
      if (exists(join(dir, specifier + suffix))) return `${lead}${quote}${specifier}${suffix}${quote}`;
    }
    throw new Error(`${dir}: cannot resolve ${specifier} to an emitted module`);
  });
}

function walk(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory() ? walk(join(dir, entry.name)) : [join(dir, entry.name)],
  );
}

export function buildServices(root: string = repoRoot): string[] {
  const out = mkdtempSync(join(tmpdir(), "vu-build-"));
  try {
    const tsc = join(root, "node_modules", "typescript", "bin", "tsc");
    execFileSync(process.execPath, [tsc, "-p", join(root, "tsconfig.build.json"), "--outDir", out], {
      stdio: "inherit",
    });
    const built: string[] = [];
    for (const group of ["packages", "services"]) {
      if (!existsSync(join(out, group))) continue;
      for (const name of readdirSync(join(out, group))) {
        const emitted = join(out, group, name, "src");
        const pkg = join(root, group, name);
        const dist = join(pkg, "dist");
        rmSync(dist, { recursive: true, force: true });
        cpSync(emitted, dist, { recursive: true });
        for (const asset of walk(join(pkg, "src")).filter((file) => ASSET.test(file))) {
          cpSync(asset, join(dist, relative(join(pkg, "src"), asset)));
        }
        for (const file of walk(dist).filter((path) => path.endsWith(".js"))) {
          writeFileSync(file, addJsExtensions(readFileSync(file, "utf8"), dirname(file)));
        }
        built.push(relative(root, dist));
      }
    }
    return built;
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const built = buildServices();
  process.stderr.write(`built ${built.join(", ")}\n`);
}
