import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createServer, type Server } from "node:net";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// Regression: a second API started on a port in use logged "query API listening" and stayed up
// without listening (Express 5 hands the listen error to the callback, which ignored it).

const root = fileURLToPath(new URL("../../../", import.meta.url));
let occupied: Server;
let port: number;

beforeAll(async () => {
  occupied = createServer();
  // No host, as main.ts listens: the same (dual-stack) address family the API would take.
  await new Promise<void>((resolve) => occupied.listen(0, resolve));
  const address = occupied.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  port = address.port;
});
afterAll(() => new Promise<void>((resolve) => occupied.close(() => resolve())));

function runMain(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(`${root}node_modules/.bin/tsx`, ["services/query-api/src/main.ts"], {
      cwd: root,
      env: { ...process.env, ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`main.ts still running after 60 s:\n${output}`));
    }, 60_000);
    child.once("error", reject);
    child.once("exit", (code) => {
      clearTimeout(timer);
      resolve({ code, output });
    });
  });
}

describe("main.ts", () => {
  it("exits non-zero, saying why, when its port is taken", async () => {
    const { code, output } = await runMain({
      PORT: String(port),
      REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
      REDIS_PREFIX: `test-${randomUUID()}`,
      LOG_LEVEL: "info",
    });
    expect(code).toBe(1);
    expect(output).toContain(`cannot listen on port ${port}: the port is already in use`);
    expect(output).not.toContain("query API listening");
  });
});
