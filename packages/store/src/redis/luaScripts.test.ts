import { type Chunk, type Node, parse } from "luaparse";
import { describe, expect, it } from "vitest";
import { AUTH_SCRIPTS } from "../auth/authScripts";
import { LARGE_CELL_BYTES, SMALL_CELL_BYTES } from "../format/sums";
import { LOG_SCRIPTS } from "../log/logScripts";
import { WRITE_SCRIPTS } from "../write/applyScript";
import { LUA_CONSTANTS, luaConstants, luaLiteral } from "../write/luaConstants";
import { loadScript, type ScriptSpec } from "./scriptLoader";

// The scripts as Redis runs them (includes inlined, constants generated), parsed as Lua 5.1 (Redis'
// Lua). A script that used a constant the generated ones lack would read nil; one that wrote a
// constant's value out would drift from TypeScript unseen: both fail here.

/** What Redis' Lua has besides a script's own locals (the globals these scripts may use). */
const REDIS_LUA_GLOBALS = new Set([
  "redis",
  "KEYS",
  "ARGV",
  "struct",
  "cjson",
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

/** Every script of the store. */
const SCRIPTS: readonly ScriptSpec[] = [
  ...Object.values(WRITE_SCRIPTS),
  ...Object.values(LOG_SCRIPTS),
  ...Object.values(AUTH_SCRIPTS),
];

function parseScript(spec: ScriptSpec): Parsed {
  const { file } = spec;
  const text = loadScript(spec);
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
  parsed ??= SCRIPTS.map(parseScript);
  return parsed;
};
const withConstants = () => scripts().filter((s) => s.withConstants);
const numericConstants = new Map(
  Object.entries(LUA_CONSTANTS).flatMap(([name, value]) =>
    typeof value === "number" ? [[value, name]] : [],
  ),
);

describe("the Lua scripts", () => {
  it.each(SCRIPTS.map((spec) => [spec.file, spec] as const))("%s parses as Lua 5.1", (_file, spec) => {
    expect(() => parseScript(spec)).not.toThrow();
  });

  it("read no name but their own locals, the constants they take and Redis' Lua's", () => {
    const unknown = scripts().flatMap(({ file, globals }) =>
      globals.filter((name) => !REDIS_LUA_GLOBALS.has(name)).map((name) => `${file}: ${name}`),
    );
    expect(unknown).toEqual([]);
  });

  it("use every generated constant, and only the apply script takes them", () => {
    expect(withConstants().map((s) => s.file)).toEqual([WRITE_SCRIPTS.applyBatches.file]);
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

  it("give a sketch pair's struct format the bytes sketches.ts reads: a u16 key and a u32 count", () => {
    expect(LUA_CONSTANTS.SKETCH_PAIR).toBe("HI4");
    expect(LUA_CONSTANTS.SKETCH_PAIR_BYTES).toBe(2 + 4);
    // Not a sums cell's width: the batch tells a block of sketches by it.
    expect([SMALL_CELL_BYTES, LARGE_CELL_BYTES]).not.toContain(LUA_CONSTANTS.SKETCH_CELLS);
  });

  it("are exact integers and printable strings, quoted for Lua", () => {
    expect(luaLiteral(-5)).toBe("-5");
    expect(luaLiteral(0xffff_ffff)).toBe("4294967295");
    expect(luaLiteral('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(() => luaLiteral(0.5)).toThrow(RangeError);
    expect(() => luaLiteral("line\nbreak")).toThrow(RangeError);
  });
});
