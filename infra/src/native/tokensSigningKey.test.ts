import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { stackTokensSigningKey, tokensSigningKeyFile } from "./tokensSigningKey";

describe("stackTokensSigningKey", () => {
  let dir: string;
  const saved = process.env.VU_STACK_DIR;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "vu-stack-"));
    process.env.VU_STACK_DIR = join(dir, "stack");
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.VU_STACK_DIR;
    else process.env.VU_STACK_DIR = saved;
    rmSync(dir, { recursive: true, force: true });
  });

  it("makes a random key once, readable by its owner only, and keeps it", () => {
    const first = stackTokensSigningKey();
    expect(first).toMatchObject({ made: true, file: tokensSigningKeyFile() });
    expect(first.key).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(first.file).mode & 0o777).toBe(0o600);
    expect(readFileSync(first.file, "utf8")).toBe(`${first.key}\n`);
    expect(stackTokensSigningKey()).toEqual({ ...first, made: false });
  });

  it("refuses a file it did not make", () => {
    stackTokensSigningKey();
    writeFileSync(tokensSigningKeyFile(), "change-me\n");
    expect(() => stackTokensSigningKey()).toThrow(/does not hold a key this stack made/);
  });
});
