import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const fixture = fileURLToPath(new URL("./fixtures/slowShutdown.ts", import.meta.url));

describe("onShutdown", () => {
  it("finishes its steps when a second SIGINT arrives during shutdown (Ctrl-C under tsx)", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", fixture], {
      stdio: ["pipe", "pipe", "inherit"],
    });
    let output = "";
    const waiters: Array<{ line: string; resolve: () => void }> = [];
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once("exit", (code, signal) => resolve({ code, signal })),
    );
    /** Resolves once the child has printed `line`; fails if it exits first. */
    const printed = (line: string) =>
      Promise.race([
        new Promise<void>((resolve) => {
          waiters.push({ line, resolve });
          check();
        }),
        exited.then((exit) => {
          throw new Error(`exited (${JSON.stringify(exit)}) before printing "${line}"; output: ${output}`);
        }),
      ]);
    const check = () => {
      for (const waiter of waiters) if (output.includes(`${waiter.line}\n`)) waiter.resolve();
    };
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      check();
    });
    await printed("ready");
    child.kill("SIGINT");
    // The shutdown step has started and waits for stdin to end: the second SIGINT lands inside it.
    await printed("stopping");
    child.kill("SIGINT");
    child.stdin.end();
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(output).toContain("stopped\n");
  });
});
