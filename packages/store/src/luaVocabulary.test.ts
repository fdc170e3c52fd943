import { readFileSync } from "node:fs";
import { DIMENSIONS } from "@vu/events";
import { describe, expect, it } from "vitest";
import { RECORDING_DIGEST_BYTES } from "./recordingDigest";
import { loadScript, SCRIPTS } from "./scripts";
import { SMALL_CELL_BYTES, SMALL_CELL_MAX, SUM_FIELDS } from "./sums";

// Lua cannot import the declarations (DIMENSIONS in @vu/events, SUM_FIELDS in sums.ts), so the
// scripts write their counts out; these tests hold every such place to the declarations, as
// dimensionOrder.test.ts holds the order of the apply script's keys.

const include = (name: string) =>
  readFileSync(new URL(`./lua/includes/${name}.lua`, import.meta.url), "utf8");
/** The script that writes cells (the one that includes packCell), whatever its name. */
const applyBatch = (): string => {
  const writers = Object.values(SCRIPTS)
    .map((spec) => loadScript(spec.file))
    .filter((script) => script.includes("local function packCell("));
  expect(writers).toHaveLength(1);
  return writers[0] ?? "";
};
const firstMatch = (text: string, pattern: RegExp): string[] => {
  const match = pattern.exec(text);
  expect(match, String(pattern)).not.toBeNull();
  return match?.slice(1) ?? [];
};

describe("the apply script's dimensions", () => {
  const n = DIMENSIONS.length;

  it("reads each combination's values, one per dimension (readBatch)", () => {
    const [values = ""] = firstMatch(include("readBatch"), /values = \{([^}]*)\}/);
    expect(values.split(",").map((v) => v.trim())).toEqual(DIMENSIONS.map(() => "str()"));
  });

  it("fills the dimension sets, an organization's keys 3 .. 2 + n (addDimensionValues)", () => {
    const store = include("storeCombos");
    const loops = [...store.matchAll(/for d = (\d+), (\d+) do/g)].map(([, from, to]) => [
      Number(from),
      Number(to),
    ]);
    expect(loops).toEqual([
      [1, n],
      [1, n],
    ]);
    expect(store).toContain("keys[2 + d]");
    const [sets = ""] = firstMatch(store, /local values = \{(.*)\}\n/);
    expect(sets.match(/\{\}/g)).toHaveLength(n);
  });
});

describe("the apply script's sums", () => {
  const n = SUM_FIELDS.length;

  it("names them in SUM_FIELDS order in its header", () => {
    const [listed = ""] = firstMatch(applyBatch(), /the cells' sums \(([^)]*)\)/);
    expect(listed.split(",").map((f) => f.trim())).toEqual([...SUM_FIELDS]);
  });

  it("stores a cell in the forms sums.ts writes and reads", () => {
    const script = applyBatch();
    const [small = "", bytes = "", max = ""] = firstMatch(
      script,
      /local SMALL_CELL, SMALL_CELL_BYTES, SMALL_CELL_MAX = "([^"]+)", (\d+), (\d+)/,
    );
    expect(small).toBe(`<${"I4".repeat(n)}`);
    expect(Number(bytes)).toBe(SMALL_CELL_BYTES);
    expect(Number(max)).toBe(SMALL_CELL_MAX);
    expect(firstMatch(script, /local LARGE_CELL = "([^"]+)"/)).toEqual([`<${"d".repeat(n)}`]);
  });

  it("packs, unpacks and adds every sum of a cell (packCell, writeBlock)", () => {
    const [params = ""] = firstMatch(include("packCell"), /local function packCell\(([^)]*)\)/);
    expect(params.split(",")).toHaveLength(n);
    const block = include("writeBlock");
    // The old cell and the new one: a loop over no match would pass silently, so count them.
    const unpacked = [...block.matchAll(/local ([\w, ]+) = unpackCell\(/g)].map(([, locals = ""]) => locals);
    expect(unpacked).toHaveLength(2);
    for (const locals of unpacked) expect(locals.split(",")).toHaveLength(n);
    const [sums = ""] = firstMatch(block, /\bpackCell\(([^)]*)\)/);
    expect(sums.split(",")).toHaveLength(n);
  });
});

describe("the apply script's recording digests", () => {
  it("reads each id as RECORDING_DIGEST_BYTES bytes (readBatch)", () => {
    const [last = "", step = ""] = firstMatch(
      include("readBatch"),
      /ids\[i\] = string\.sub\(batch, pos, pos \+ (\d+)\)\s+pos = pos \+ (\d+)/,
    );
    expect([Number(last) + 1, Number(step)]).toEqual([RECORDING_DIGEST_BYTES, RECORDING_DIGEST_BYTES]);
  });
});
