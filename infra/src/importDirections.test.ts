// No import points upward: libraries (packages/) import no service, infra or test code; services
// import no test code; the native stack imports no test kit. Tests (`*.test.ts`, a service's `e2e/`
// folder) may import anything below them, the test kit included. A package's `dependencies` (what
// its code needs at run time) are held to the same layers. Inside a service, some folders import
// each other one way only (FOLDER_DIRECTIONS).
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { preProcessFile } from "typescript";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./paths";

const TEST_SIDE = ["@vu/testkit", "@vu/e2e", "@vu/bench"];
const SERVICES = ["@vu/ingest-worker", "@vu/query-api", "@vu/dashboard"];

/** What code under each folder must not import. */
const LAYERS: ReadonlyArray<{ under: string; forbidden: readonly string[] }> = [
  { under: "packages", forbidden: [...SERVICES, "@vu/infra", ...TEST_SIDE] },
  { under: "services", forbidden: TEST_SIDE },
  { under: "infra/src", forbidden: TEST_SIDE },
];

const isTestCode = (path: string) => /\.test\.ts$/.test(path) || /(^|\/)e2e\//.test(path);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory())
      return entry.name === "node_modules" || entry.name === "dist" ? [] : sources(path);
    return entry.name.endsWith(".ts") ? [path] : [];
  });
}

const SPECIFIER = /\b(?:from|import)\s*\(?\s*["'](@vu\/[\w-]+)/g;
const importsOf = (path: string) =>
  [...readFileSync(path, "utf8").matchAll(SPECIFIER)].map(([, name]) => name as string);

/**
 * Folders inside one service whose code imports the other's only one way. The query API's
 * `query/` computes answers and asks `cache/` to keep them; `cache/` is the lower layer (its
 * bounded cache serves `auth/`, `planner/` and `http/` too, and `query/` reads through `planner/`),
 * so it knows nothing of how an answer is computed or what bounds a computation: a `cache/` that
 * imported `query/` would close a loop through `planner/`.
 */
const FOLDER_DIRECTIONS: ReadonlyArray<{ from: string; notInto: string }> = [
  { from: "services/query-api/src/cache", notInto: "services/query-api/src/query" },
];

/** The files (repository paths) `path` imports by relative path, type-only imports included, as TypeScript reads them. */
function relativeImportsOf(path: string): string[] {
  const { importedFiles } = preProcessFile(readFileSync(path, "utf8"), true, true);
  return importedFiles
    .map(({ fileName }) => fileName)
    .filter((name) => name.startsWith("."))
    .map((name) => relative(repoRoot, resolve(dirname(path), name)));
}

/** `from`'s imports (outside tests) of anything under `into`, as "file imports target". */
function importsInto(from: string, into: string): string[] {
  const files = sources(join(repoRoot, from)).filter((path) => !isTestCode(relative(repoRoot, path)));
  expect(files.length, `${from} has code`).toBeGreaterThan(0);
  return files.flatMap((path) =>
    relativeImportsOf(path)
      .filter((target) => target === into || target.startsWith(`${into}/`))
      .map((target) => `${relative(repoRoot, path)} imports ${target}`),
  );
}

describe("folder directions inside a service", () => {
  it.each(FOLDER_DIRECTIONS)("$from imports nothing of $notInto", ({ from, notInto }) => {
    expect(importsInto(from, notInto)).toEqual([]);
  });

  it("finds the imports the other way, type-only ones included", () => {
    const [{ from, notInto } = { from: "", notInto: "" }] = FOLDER_DIRECTIONS;
    const back = importsInto(notInto, from);
    expect(back).toContain(
      "services/query-api/src/query/dimensionsQuery.ts imports services/query-api/src/cache/resultCache",
    );
  });
});

describe("import directions", () => {
  for (const { under, forbidden } of LAYERS) {
    it(`${under}: code outside tests imports none of ${forbidden.join(", ")}`, () => {
      const files = sources(join(repoRoot, under)).filter((path) => !isTestCode(relative(repoRoot, path)));
      expect(files.length).toBeGreaterThan(10);
      const upward = files.flatMap((path) =>
        importsOf(path)
          .filter((name) => forbidden.includes(name))
          .map((name) => `${relative(repoRoot, path)} imports ${name}`),
      );
      expect(upward).toEqual([]);
    });
  }

  it("a library's run-time dependencies are libraries", () => {
    const upward = readdirSync(join(repoRoot, "packages")).flatMap((name) => {
      const manifest = JSON.parse(readFileSync(join(repoRoot, "packages", name, "package.json"), "utf8")) as {
        dependencies?: Record<string, string>;
      };
      return Object.keys(manifest.dependencies ?? {})
        .filter((dep) => [...SERVICES, "@vu/infra", ...TEST_SIDE].includes(dep))
        .map((dep) => `packages/${name} depends on ${dep}`);
    });
    expect(upward).toEqual([]);
  });

  it("finds an upward import where there is one", () => {
    expect(importsOf(join(repoRoot, "test/kit/src/worker.ts"))).toContain("@vu/ingest-worker");
  });
});
