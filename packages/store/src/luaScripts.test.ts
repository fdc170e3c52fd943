import { type Chunk, type Node, parse } from "luaparse";
import { describe, expect, it } from "vitest";
import { LUA_CONSTANTS, luaConstants, luaLiteral } from "./luaConstants";
import { loadScript, SCRIPTS } from "./scripts";
import { LARGE_CELL_BYTES, SMALL_CELL_BYTES } from "./sums";

// The scripts as Redis runs them (includes inlined, constants generated), parsed as Lua 5.1 (Redis'
// Lua). A script that used a constant the generated ones lack would read nil; one that wrote a
// constant's value out would drift from TypeScript unseen: both fail here.

/** What Redis' Lua has besides a script's own locals (the globals these scripts may use). */
const REDIS_LUA_GLOBALS = new Set([
  "redis",
  "KEYS",
  "ARGV",
  "struct",
  "string",
  "math",
  "table",
  "unpack",
  "tonumber",
  "tostring",
  "ipairs",
  "pairs",
  "error",
  "type",
]);

/** Lua's own small numbers (first index, one past, halves and doubles): never read as a copy of a constant. */
const LUA_OWN = new Set([0, 1, 2]);

interface Parsed {
  file: string;
  /** Whether the script takes the generated constants (`--- @constants`). */
  withConstants: boolean;
  /** Every node, the generated constants' own excluded. */
  nodes: Node[];
  /** Names read as globals (not declared by the script, nor by the constants it takes). */
  globals: string[];
}

function parseScript(file: string): Parsed {
  const text = loadScript(file);
  const constants = luaConstants();
  const from = text.indexOf(constants);
  // With `ranges`, every node carries where it is in the text (the types leave it out).
  const inConstants = (node: Node) => {
    const [start, end] = (node as Node & { range: [number, number] }).range;
    return from >= 0 && start >= from && end <= from + constants.length;
  };
  const nodes: Node[] = [];
  parse(text, {
    luaVersion: "5.1",
    scope: true,
    ranges: true,
    onCreateNode: (node) => {
      if (!inConstants(node)) nodes.push(node);
    },
  });
  // Names that are not variables: a field after `.` or `:`, a key in a table constructor.
  const notVariables = new Set<Node>(
    nodes.flatMap((node) => {
      if (node.type === "MemberExpression") return [node.identifier];
      if (node.type === "TableKeyString") return [node.key];
      return [];
    }),
  );
  const globals = nodes.flatMap((node) =>
    node.type === "Identifier" && !notVariables.has(node) && !(node as { isLocal?: boolean }).isLocal
      ? [node.name]
      : [],
  );
  return { file, withConstants: from >= 0, nodes, globals };
}

let parsed: Parsed[] | undefined;
/** Every script, parsed once (the first test reports a script that does not parse). */
const scripts = () => {
  parsed ??= Object.values(SCRIPTS).map((spec) => parseScript(spec.file));
  return parsed;
};
const withConstants = () => scripts().filter((s) => s.withConstants);
const numericConstants = new Map(
  Object.entries(LUA_CONSTANTS).flatMap(([name, value]) =>
    typeof value === "number" ? [[value, name]] : [],
  ),
);

describe("the Lua scripts", () => {
  it.each(Object.values(SCRIPTS).map((spec) => spec.file))("%s parses as Lua 5.1", (file) => {
    expect(() => parseScript(file)).not.toThrow();
  });

  it("read no name but their own locals, the constants they take and Redis' Lua's", () => {
    const unknown = scripts().flatMap(({ file, globals }) =>
      globals.filter((name) => !REDIS_LUA_GLOBALS.has(name)).map((name) => `${file}: ${name}`),
    );
    expect(unknown).toEqual([]);
  });

  it("use every generated constant, and only the apply script takes them", () => {
    expect(withConstants().map((s) => s.file)).toEqual([SCRIPTS.applyBatches.file]);
    const used = new Set(
      withConstants().flatMap(({ nodes }) => nodes.flatMap((n) => (n.type === "Identifier" ? [n.name] : []))),
    );
    const unused = Object.keys(LUA_CONSTANTS).filter((name) => !used.has(name));
    expect(unused).toEqual([]);
  });

  it("write out none of the constants they take: no index of KEYS, ARGV or keys is a number", () => {
    const literalIndexes = withConstants().flatMap(({ file, nodes }) =>
      nodes.flatMap((node) =>
        node.type === "IndexExpression" &&
        node.base.type === "Identifier" &&
        ["KEYS", "ARGV", "keys"].includes(node.base.name) &&
        node.index.type === "NumericLiteral"
          ? [`${file}: ${node.base.name}[${node.index.raw}]`]
          : [],
      ),
    );
    expect(literalIndexes).toEqual([]);
  });

  it("write out none of the constants they take: no number but 0, 1 and 2 is a constant's value", () => {
    const copies = withConstants().flatMap(({ file, nodes }) =>
      nodes.flatMap((node) =>
        node.type === "NumericLiteral" && !LUA_OWN.has(node.value) && numericConstants.has(node.value)
          ? [`${file}: ${node.raw} (${numericConstants.get(node.value)}?)`]
          : [],
      ),
    );
    expect(copies).toEqual([]);
  });
});

/** The generated declarations: name → the value Lua reads (numbers and strings only). */
function declared(chunk: Chunk): Map<string, number | string> {
  const values = new Map<string, number | string>();
  for (const statement of chunk.body) {
    expect(statement.type).toBe("LocalStatement");
    if (statement.type !== "LocalStatement") continue;
    const [variable] = statement.variables;
    const [init] = statement.init;
    expect(statement.variables).toHaveLength(1);
    if (variable === undefined || init === undefined) continue;
    if (init.type === "NumericLiteral") values.set(variable.name, init.value);
    else if (
      init.type === "UnaryExpression" &&
      init.operator === "-" &&
      init.argument.type === "NumericLiteral"
    )
      values.set(variable.name, -init.argument.value);
    else if (init.type === "StringLiteral") values.set(variable.name, init.raw.slice(1, -1));
  }
  return values;
}

describe("the generated constants", () => {
  it("declare every constant once, with its TypeScript value", () => {
    const chunk = parse(luaConstants(), { luaVersion: "5.1" });
    expect(chunk.body).toHaveLength(Object.keys(LUA_CONSTANTS).length);
    expect(Object.fromEntries(declared(chunk))).toEqual(LUA_CONSTANTS);
  });

  it("give a stored cell's struct formats the byte sizes sums.ts reads", () => {
    const { SMALL_CELL, LARGE_CELL, SUM_COUNT } = LUA_CONSTANTS;
    expect(SMALL_CELL).toBe(`<${"I4".repeat(SUM_COUNT)}`);
    expect(4 * SUM_COUNT).toBe(SMALL_CELL_BYTES);
    expect(LARGE_CELL).toBe(`<${"d".repeat(SUM_COUNT)}`);
    expect(8 * SUM_COUNT).toBe(LARGE_CELL_BYTES);
  });

  it("are exact integers and printable strings, quoted for Lua", () => {
    expect(luaLiteral(-5)).toBe("-5");
    expect(luaLiteral(0xffff_ffff)).toBe("4294967295");
    expect(luaLiteral('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(() => luaLiteral(0.5)).toThrow(RangeError);
    expect(() => luaLiteral("line\nbreak")).toThrow(RangeError);
  });
});
