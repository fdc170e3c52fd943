import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { addJsExtensions } from "./buildServices";

const dir = "/out/dist";
const files = new Set([join(dir, "app.js"), join(dir, "http/index.js"), join(dir, "../shared.js")]);
const exists = (path: string) => files.has(path);

describe("addJsExtensions", () => {
  it("adds .js or /index.js to static, re-export, side-effect and dynamic imports", () => {
    const code = [
      'import { createApp } from "./app";',
      'export * from "./http";',
      'import "./app";',
      'const m = await import("../shared");',
    ].join("\n");
    expect(addJsExtensions(code, dir, exists)).toBe(
      [
        'import { createApp } from "./app.js";',
        'export * from "./http/index.js";',
        'import "./app.js";',
        'const m = await import("../shared.js");',
      ].join("\n"),
    );
  });

  it("leaves package imports, URLs and specifiers that already have an extension alone", () => {
    const code = [
      'import { z } from "zod";',
      'import { x } from "./app.js";',
      'const lua = new URL("./lua/applyBatches.lua", import.meta.url);',
    ].join("\n");
    expect(addJsExtensions(code, dir, exists)).toBe(code);
  });

  it("fails the build on a relative import that names no emitted module", () => {
    expect(() => addJsExtensions('import { y } from "./missing";', dir, exists)).toThrow(/\.\/missing/);
  });
});
