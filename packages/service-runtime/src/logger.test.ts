import { mkdtempSync, openSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { logDestination } from "./logger";

describe("the log destination", () => {
  it("drops lines past its buffer instead of holding them while the output lags", async () => {
    const path = join(mkdtempSync(join(tmpdir(), "vu-log-")), "out.log");
    const destination = logDestination(openSync(path, "w"), 64) as ReturnType<typeof logDestination> & {
      on(event: "drop" | "close", listener: (data: string) => void): void;
      end(): void;
    };
    const dropped: string[] = [];
    destination.on("drop", (data) => dropped.push(data));
    destination.write(`${"a".repeat(40)}\n`);
    destination.write(`${"b".repeat(100)}\n`);
    // Everything held is written once the destination has ended and closed its file.
    const closed = new Promise((resolve) => destination.on("close", resolve));
    destination.end();
    await closed;
    expect(dropped).toEqual([`${"b".repeat(100)}\n`]);
    expect(readFileSync(path, "utf8")).toBe(`${"a".repeat(40)}\n`);
  });
});
