import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const fixture = fileURLToPath(new URL("./fixtures/slowShutdown.ts", import.meta.url));

describe("onShutdown", () => {
  it("finishes its steps when a second SIGINT arrives during shutdown (Ctrl-C under tsx)", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", fixture], {
      stdio: ["ignore", "pipe", "inherit"],
    });
    let output = "";
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once("exit", (code, signal) => resolve({ code, signal })),
    );
    await new Promise<void>((resolve) =>
      child.stdout.on("data", (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("ready")) resolve();
      }),
    );
    child.kill("SIGINT");
    await new Promise((resolve) => setTimeout(resolve, 50));
    child.kill("SIGINT");
    expect(await exited).toEqual({ code: 0, signal: null });
    expect(output).toContain("stopped");
  });
});
