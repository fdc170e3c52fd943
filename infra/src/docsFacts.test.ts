// Docs are code: a variable, key, script or path that the READMEs name must exist. A README that
// documents a variable no schema reads, a key the key builder never builds or a file that is gone
// fails here, and so does any document (the bench's reading included) naming a variable or
// constant the code no longer has.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { workerEnvSchema } from "@vu/ingest-worker";
import { apiEnvSchema, TOKEN_COMMANDS, tokensCliEnvSchema } from "@vu/query-api";
import { tracingEnvSchema } from "@vu/service-runtime";
import { createKeyspace, PROJECTIONS } from "@vu/store";
import { TIERS } from "@vu/time-buckets";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./paths";
import { sourceFiles } from "./sourceFiles";

const read = (path: string) => readFileSync(join(repoRoot, path), "utf8");

/** The rows of the markdown table that follows `heading`, as arrays of cells. */
function tableAfter(markdown: string, heading: string): string[][] {
  const from = markdown.indexOf(heading);
  expect(from, heading).toBeGreaterThanOrEqual(0);
  const rows: string[][] = [];
  let inTable = false;
  for (const line of markdown.slice(from).split("\n").slice(1)) {
    if (line.startsWith("|")) {
      inTable = true;
      if (!/^\|[-| ]+\|$/.test(line))
        rows.push(
          line
            .split(/(?<!\\)\|/)
            .slice(1, -1)
            .map((c) => c.trim()),
        );
    } else if (inTable) break;
  }
  return rows.slice(1);
}

const backticked = (cell: string) => [...cell.matchAll(/`([^`]+)`/g)].map(([, text]) => text as string);

/** `RETENTION_{MINUTE,HOUR}_DAYS` → `RETENTION_MINUTE_DAYS`, `RETENTION_HOUR_DAYS`. */
function expandBraces(text: string): string[] {
  const match = /\{([^}]+)\}/.exec(text);
  if (!match) return [text];
  return (match[1] ?? "").split(",").flatMap((part) => expandBraces(text.replace(match[0], part)));
}

// Both services' main.ts read the tracing variables (service-runtime's schema) before the rest.
const tracing = Object.keys(tracingEnvSchema.shape);
const SCHEMAS: Record<string, ReadonlySet<string>> = {
  worker: new Set([...Object.keys(workerEnvSchema.shape), ...tracing]),
  API: new Set([...Object.keys(apiEnvSchema.shape), ...tracing]),
  "tokens CLI": new Set(Object.keys(tokensCliEnvSchema.shape)),
};

describe("README.md", () => {
  const readme = read("README.md");

  it("documents only variables the schemas of the processes it names read", () => {
    const rows = tableAfter(readme, "## Configuration");
    expect(rows.length).toBeGreaterThan(10);
    for (const [variables = "", usedBy = ""] of rows) {
      const users = usedBy === "both" ? ["worker", "API"] : usedBy.split(",").map((u) => u.trim());
      for (const variable of backticked(variables).flatMap(expandBraces)) {
        for (const user of users) {
          expect(SCHEMAS[user], `README names "${user}"`).toBeDefined();
          expect(SCHEMAS[user]?.has(variable), `${variable} is read by the ${user}`).toBe(true);
        }
      }
    }
  });

  it("names only commands the tokens CLI takes", () => {
    // `npm run tokens -- resign`, `… node dist/cli/tokens.js create`, and the list after the first:
    // `list --org ORG`; `revoke …`; `resign` in the Tokens paragraph.
    const named = [...readme.matchAll(/(?:npm run tokens -- |cli\/tokens\.js )([a-z]+)/g)].map(([, c]) => c);
    const paragraph = readme.slice(readme.indexOf("- **Tokens**:"), readme.indexOf("- **Tokens survive"));
    named.push(...[...paragraph.matchAll(/; `([a-z]+)/g)].map(([, c]) => c));
    expect(new Set(named)).toEqual(new Set(TOKEN_COMMANDS));
  });

  it("names only folders that exist in its architecture table", () => {
    const rows = tableAfter(readme, "## Architecture");
    expect(rows.length).toBeGreaterThan(5);
    for (const [where = ""] of rows) {
      const [path = ""] = backticked(where);
      expect(existsSync(join(repoRoot, path)), path).toBe(true);
    }
  });
});

describe("packages/store/README.md", () => {
  const readme = read("packages/store/README.md");
  const keyspace = createKeyspace({ prefix: "vu" });
  const at = Date.UTC(2026, 10, 22, 10, 15);
  const built = [
    keyspace.generation(),
    keyspace.log(1),
    keyspace.shardWrites(1, 17),
    keyspace.combos(1, "acme"),
    keyspace.extent(1, "acme"),
    keyspace.dimension(1, "acme", "app_name"),
    keyspace.seenTable(1, "acme", 2930),
    keyspace.seenIds(1, "acme", 2930),
    ...TIERS.flatMap((tier) =>
      PROJECTIONS.map((projection) => keyspace.block(1, "acme", tier, at, projection)),
    ),
    ...TIERS.map((tier) => keyspace.container(1, "acme", tier, at)),
    ...TIERS.map((tier) => keyspace.keyed(1, "acme", tier, at)),
    ...TIERS.flatMap((tier) =>
      [
        keyspace.container(1, "acme", tier, at),
        keyspace.keyed(1, "acme", tier, at),
        keyspace.block(1, "acme", tier, at, "combos"),
      ].map(keyspace.sketches),
    ),
    keyspace.token("ab12"),
    keyspace.orgTokens("acme"),
    `${keyspace.rateLimitPrefix()}token-id`,
  ];
  /** A documented key pattern as a regular expression: `<placeholder>` is any text without a colon. */
  const patterns = tableAfter(readme, "## Key layout").map(([key = ""]) => {
    const [pattern = ""] = backticked(key);
    const source = pattern
      .replace(/\\\|/g, "|")
      .split(/(<[^>]+>)/)
      .map((part) => (part.startsWith("<") ? "[^:]+" : part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")))
      .join("");
    return { pattern, regex: new RegExp(`^${source}$`) };
  });

  it("documents every key the key builder builds, and no key it does not", () => {
    for (const key of built) {
      expect(
        patterns.some(({ regex }) => regex.test(key)),
        `${key} is documented`,
      ).toBe(true);
    }
    for (const { pattern, regex } of patterns) {
      expect(
        built.some((key) => regex.test(key)),
        `${pattern} is built by keyspace.ts`,
      ).toBe(true);
    }
  });

  it("names only scripts and source files that exist", () => {
    const files = [...readme.matchAll(/`(src\/[\w/.-]+\.(?:lua|ts|md))`/g)].map(([, file]) => file as string);
    expect(files.length).toBeGreaterThan(5);
    for (const file of files) {
      expect(existsSync(join(repoRoot, "packages/store", file)), file).toBe(true);
    }
  });
});

describe("every document but the decision records", () => {
  /** The project's documents; docs/decisions/ tells history and may name what is gone. */
  const documents = [
    "README.md",
    ...readdirSync(join(repoRoot, "docs"))
      .filter((name) => name.endsWith(".md"))
      .map((name) => `docs/${name}`),
    ...["bench/README.md", "bench/ANALYSIS.md", "bench/REPORT.md", "infra/README.md", "test/README.md"],
    ...["packages", "services"].flatMap((folder) =>
      readdirSync(join(repoRoot, folder))
        .map((name) => `${folder}/${name}/README.md`)
        .filter((path) => existsSync(join(repoRoot, path))),
    ),
  ];
  const code = sourceFiles()
    .map((path) => readFileSync(path, "utf8"))
    .join("\n");

  it("names only upper-case variables and constants that exist in the code", () => {
    expect(documents.length).toBeGreaterThan(10);
    const missing = documents.flatMap((document) =>
      [...read(document).matchAll(/`([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)(?:=[^`]*)?`/g)]
        .map(([, name]) => name as string)
        .filter((name) => !new RegExp(`\\b${name}\\b`).test(code))
        .map((name) => `${document}: ${name}`),
    );
    expect(missing).toEqual([]);
  });
});
