import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { loadScript } from "./scriptLoader";

/** A room's `lua/` folder holding `files` (path without `.lua` → text). */
function luaFolder(files: Record<string, string>): URL {
  const dir = mkdtempSync(join(tmpdir(), "lua-"));
  mkdirSync(join(dir, "includes"));
  for (const [path, text] of Object.entries(files)) writeFileSync(join(dir, `${path}.lua`), text);
  return pathToFileURL(`${dir}/`);
}

describe("loadScript", () => {
  it("inlines includes from the room's own lua/ folder and writes the spec's constants", () => {
    const dir = luaFolder({
      "main-1": '--- @constants\n--- @include "includes/twice"\nreturn twice(ANSWER)\n',
      "includes/twice": "local function twice(n) return 2 * n end\n",
    });
    const text = loadScript({ dir, file: "main-1", command: "x", constants: () => "local ANSWER = 21" });
    expect(text).toBe("local ANSWER = 21\nlocal function twice(n) return 2 * n end\nreturn twice(ANSWER)\n");
  });

  it("refuses a script that asks for constants its spec does not give", () => {
    const dir = luaFolder({ "main-1": "--- @constants\nreturn ANSWER\n" });
    expect(() => loadScript({ dir, file: "main-1", command: "x" })).toThrow(/constants/);
  });
});
