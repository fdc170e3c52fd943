// Comments say why the code is as it is today. The story of how it got there (which issue asked for
// it, what an earlier store version did) lives in docs/decisions/, where it cannot go stale beside
// the code: a comment that names an issue number or a store version's past fails here.
import { readFileSync } from "node:fs";
import { join, relative } from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { repoRoot } from "./paths";
import { sourceFiles } from "./sourceFiles";

/** The files whose comments are read: TypeScript, JavaScript and Lua. */
const COMMENTED = /\.(?:ts|tsx|mts|mjs|js|lua)$/;

/** What a comment must not say, and what it is when it does. */
const HISTORY: ReadonlyArray<readonly [RegExp, string]> = [
  [/#\d+\b/, "an issue number"],
  [/\bissues? \d+/i, "an issue number"],
  [/\bstore v\d+\b/i, "a store version"],
  [/\b(?:since|until|before|after|than|from) v\d+\b/i, "a store version's past"],
  [/\bv\d+ (?:kept|stored|keeps|tagged|gives|splits|places|had|was|were)\b/i, "a store version's past"],
];

/** Every comment of a TypeScript or JavaScript file, as the compiler's scanner finds them. */
function scriptComments(fileName: string, text: string): string[] {
  const comments = new Map<number, string>();
  const collect = (position: number) => {
    const ranges = [
      ...(ts.getLeadingCommentRanges(text, position) ?? []),
      ...(ts.getTrailingCommentRanges(text, position) ?? []),
    ];
    for (const range of ranges) comments.set(range.pos, text.slice(range.pos, range.end));
  };
  const visit = (node: ts.Node) => {
    collect(node.pos);
    collect(node.end);
    ts.forEachChild(node, visit);
  };
  visit(ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false));
  return [...comments.entries()].sort(([a], [b]) => a - b).map(([, comment]) => comment);
}

/** Every comment of a Lua file: `--[[ … ]]` blocks and `--` to the end of the line, outside strings. */
function luaComments(text: string): string[] {
  const comments: string[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '"' || c === "'") {
      i++;
      while (i < text.length && text[i] !== c && text[i] !== "\n") i += text[i] === "\\" ? 2 : 1;
      i++;
    } else if (text.startsWith("--[[", i)) {
      const end = text.indexOf("]]", i);
      const stop = end < 0 ? text.length : end + 2;
      comments.push(text.slice(i, stop));
      i = stop;
    } else if (text.startsWith("--", i)) {
      const end = text.indexOf("\n", i);
      const stop = end < 0 ? text.length : end;
      comments.push(text.slice(i, stop));
      i = stop;
    } else {
      i++;
    }
  }
  return comments;
}

function commentsOf(path: string): string[] {
  const text = readFileSync(path, "utf8");
  // Parsed only where a pattern occurs at all, in a comment or not: most files need no parse.
  if (!HISTORY.some(([pattern]) => pattern.test(text))) return [];
  return path.endsWith(".lua") ? luaComments(text) : scriptComments(path, text);
}

/** What of HISTORY a comment tells, as `what: the line that tells it`. */
function historyIn(comment: string): string[] {
  return HISTORY.flatMap(([pattern, what]) => {
    const line = comment.split("\n").find((l) => pattern.test(l));
    return line === undefined ? [] : [`${what}: ${line.trim()}`];
  });
}

describe("source comments", () => {
  const files = sourceFiles().filter((path) => COMMENTED.test(path));

  it("are read from every source folder, TypeScript and Lua alike", () => {
    expect(files.some((f) => f.endsWith("keyspace.ts"))).toBe(true);
    expect(files.some((f) => f.endsWith("applyBatches.lua"))).toBe(true);
    expect(files.length).toBeGreaterThan(300);
  });

  it("tell no history: no issue number, no store version's past (that is docs/decisions/)", () => {
    const told = files.flatMap((path) =>
      commentsOf(path).flatMap((comment) =>
        historyIn(comment).map((h) => `${relative(repoRoot, path)}: ${h}`),
      ),
    );
    expect(told).toEqual([]);
  });

  it("tell history apart from versions that are names today", () => {
    for (const history of [
      "// Issue #20's heavy organization",
      "/** Small enough for the budget (bench/ANALYSIS.md, #20). */",
      "/** v6 kept minutes by hour. */",
      "// their UTC day: since v7, longer than the rule's periods",
      "// a UTC day since store v7",
      "-- see issue 11",
    ]) {
      expect(historyIn(history), history).not.toEqual([]);
    }
    for (const today of [
      "/** `recording.completed` v1 (docs/contract.md §1). */",
      "// Counters under `<prefix>:v3:ratelimit:<client>`",
      "//   v1.<key id>.<HMAC-SHA256, base64url without padding>",
      "/** Bytes a record batch adds (Kafka's v2 format, upper bounds). */",
      "// docs/contract.md §7: a 400 names the parameter",
    ]) {
      expect(historyIn(today), today).toEqual([]);
    }
  });

  it("are found wherever they sit, and strings are not comments", () => {
    const sample = join(repoRoot, "infra/src/commentsTellNoHistory.test.ts");
    const found = scriptComments(
      sample,
      [
        "/** Store v7 kept containers by hour. */",
        "const a = '// issue 12 in a string'; // as since v3",
        "function f() {",
        "  return 1;",
        "  // #19 before the closing brace",
        "}",
      ].join("\n"),
    );
    expect(found).toEqual([
      "/** Store v7 kept containers by hour. */",
      "// as since v3",
      "// #19 before the closing brace",
    ]);
    expect(luaComments('local s = "-- not one" -- one\n--[[ two\n lines ]]\nlocal t = 1')).toEqual([
      "-- one",
      "--[[ two\n lines ]]",
    ]);
  });
});
