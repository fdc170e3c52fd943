import { type ChildProcess, spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:net";
import { fileURLToPath } from "node:url";
import { isProcessAlive } from "@vu/testkit";
import { waitForValue } from "@vu/testkit/waitForValue";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LARGE_READ_NICE } from "./apiProcesses";

// A second API started on a port in use exits saying so, rather than logging "query API listening"
// and staying up without a socket (Express 5 hands the listen error to the callback, which must
// look at it). And the API on several processes (API_PROCESSES): one that dies is replaced,
// metrics are the sum of all.

const root = fileURLToPath(new URL("../../../", import.meta.url));
// Node with tsx's loader, as the stack runs the API, not the `tsx` command: that wrapper relays a
// signal to its child and, when the child has not acknowledged it within 30 ms (a loaded machine),
// sends it again and then SIGKILLs the child and exits 143, so a clean stop would look like a crash.
const MAIN = ["--import", "tsx", "services/query-api/src/main.ts"];
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
    const child = spawn(process.execPath, MAIN, {
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

const redisEnv = () => ({
  REDIS_URL: process.env.REDIS_URL ?? "redis://127.0.0.1:6379",
  REDIS_PREFIX: `test-${randomUUID()}`,
  LOG_LEVEL: "info",
});

describe("main.ts", () => {
  it.each(["1", "2"])(
    "exits non-zero, saying why, when its port is taken (API_PROCESSES=%s)",
    async (processes) => {
      const { code, output } = await runMain({
        PORT: String(port),
        OPS_PORT: String(await freePort()),
        API_PROCESSES: processes,
        ...redisEnv(),
      });
      expect(code).toBe(1);
      expect(output).toContain(`cannot listen on port ${port}: the port is already in use`);
      expect(output).not.toContain("query API listening");
    },
  );

  it.each(["1", "2"])(
    "exits non-zero, saying why, when its ops port is taken (API_PROCESSES=%s)",
    async (processes) => {
      const { code, output } = await runMain({
        PORT: String(await freePort()),
        OPS_PORT: String(port),
        API_PROCESSES: processes,
        ...redisEnv(),
      });
      expect(code).toBe(1);
      expect(output).toContain(`cannot listen on port ${port}: the port is already in use`);
      expect(output).not.toContain("query API listening");
      // Never started again and again: a process that did not listen on both ports failed to start.
      expect(output).not.toContain("an API process exited; starting another");
    },
  );

  it("serves from every process, replaces one that dies, sums their metrics and stops them all", async () => {
    const [free, opsPort] = [await freePort(), await freePort()];
    const api = startMain({
      PORT: String(free),
      OPS_PORT: String(opsPort),
      API_PROCESSES: "2",
      ...redisEnv(),
    });
    try {
      const first = await api.listening(2);
      // And the large-read process, at a lower priority (the 19th field of /proc/<pid>/stat).
      const largeReads = await api.largeReadProcess();
      const nice = Number(readFileSync(`/proc/${largeReads}/stat`, "utf8").split(") ")[1]?.split(" ")[16]);
      expect(nice).toBe(LARGE_READ_NICE);
      const base = `http://127.0.0.1:${free}`;
      const ops = `http://127.0.0.1:${opsPort}`;
      for (let i = 0; i < 20; i++) expect((await fetch(`${base}${COUNTED}`)).status).toBe(200);
      // Whichever process the scrape reaches, it counts the requests both served (each process
      // counts a request once its response has finished, which may come after the client has it).
      await waitForValue(async () => requestCount(await (await fetch(`${ops}/metrics`)).text()), 20, {
        message: `${COUNTED} requests counted in /metrics`,
      });

      process.kill(first[0] as number, "SIGKILL");
      const after = await api.listening(3);
      expect(first).not.toContain(after[2]);
      expect(api.output()).toContain("an API process exited; starting another");
      for (let i = 0; i < 4; i++) expect((await fetch(`${base}${COUNTED}`)).status).toBe(200);
    } finally {
      api.child.kill("SIGTERM");
    }
    expect(await api.exited).toBe(0);
    for (const pid of [...(await api.listening(3)), await api.largeReadProcess()])
      expect(isProcessAlive(pid)).toBe(false);
  });

  it.each(["1", "2"])(
    "serves /healthz, /readyz and /metrics on OPS_PORT only, never on PORT (API_PROCESSES=%s)",
    async (processes) => {
      const [free, opsPort] = [await freePort(), await freePort()];
      const api = startMain({
        PORT: String(free),
        OPS_PORT: String(opsPort),
        API_PROCESSES: processes,
        ...redisEnv(),
      });
      try {
        await api.listening(Number(processes));
        for (const path of ["/healthz", "/readyz", "/metrics"]) {
          const res = await fetch(`http://127.0.0.1:${free}${path}`);
          expect(res.status, `PORT ${path}`).toBe(404);
          expect(await res.text(), `PORT ${path}`).not.toMatch(/vu_|"ready"|"ok"/);
        }
        expect(await (await fetch(`http://127.0.0.1:${opsPort}/healthz`)).json()).toEqual({ status: "ok" });
        // A new prefix has no view yet: never ready, and once the process' Redis client has
        // connected (on a loaded machine the first answers may name the connection) the reason says so.
        const readiness = async () => {
          const readyz = await fetch(`http://127.0.0.1:${opsPort}/readyz`);
          expect(readyz.status).toBe(503);
          return /epoch/.test(((await readyz.json()) as { reasons: string[] }).reasons.join(" "));
        };
        await waitForValue(readiness, true, { message: "/readyz naming the missing epoch" });
        expect(await (await fetch(`http://127.0.0.1:${opsPort}/metrics`)).text()).toContain("vu_view_state");
      } finally {
        api.child.kill("SIGTERM");
      }
      expect(await api.exited).toBe(0);
    },
  );
});

describe("main.ts with traces on", () => {
  it("starts tracing before the API loads: the request's and its Redis commands' spans are exported, and flushed at SIGTERM", async () => {
    const free = await freePort();
    const api = startMain({
      PORT: String(free),
      OPS_PORT: String(await freePort()),
      API_PROCESSES: "1",
      OTEL_TRACES_EXPORTER: "console",
      OTEL_SERVICE_NAME: "query-api-under-test",
      ...redisEnv(),
    });
    try {
      await api.listening(1);
      // The API reads the view's state from Redis first: a store with no epoch (this test's prefix)
      // is a 503 that says so. Another 503 (its Redis connection not up yet) asked Redis nothing.
      const askedRedis = async () => {
        const res = await fetch(`http://127.0.0.1:${free}/api/v1/stats/summary`, {
          headers: { authorization: `Bearer sk-vu-${"a".repeat(40)}` },
        });
        return res.status === 401 || (res.status === 503 && (await res.text()).includes("no data epoch"));
      };
      await waitForValue(askedRedis, true, { timeoutMs: 30_000, message: "an answer read from Redis" });
    } finally {
      api.child.kill("SIGTERM");
    }
    expect(await api.exited).toBe(0);
    const output = api.output();
    expect(output).toContain("'service.name': 'query-api-under-test'");
    expect(output).toContain("name: '@opentelemetry/instrumentation-http'");
    // ioredis is instrumented only if it was imported after the loader hook: the order in main.ts.
    expect(output).toContain("name: '@opentelemetry/instrumentation-ioredis'");
  });
});

/** A cheap request of the public port, counted in the request metrics by its route. */
const COUNTED = "/api/v1/openapi.json";

function requestCount(metrics: string): number {
  const line = metrics
    .split("\n")
    .find((l) => l.startsWith("vu_http_request_duration_seconds_count") && l.includes(`route="${COUNTED}"`));
  return Number(line?.split(" ").at(-1));
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port");
  return address.port;
}

/** main.ts running; `listening(n)` waits for n "listening" lines and gives the processes' pids. */
function startMain(env: Record<string, string>) {
  const child: ChildProcess = spawn(process.execPath, MAIN, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const pids = () =>
    output
      .split("\n")
      .filter((line) => line.includes("query API listening"))
      .map((line) => (JSON.parse(line) as { pid: number }).pid);
  const listening = async (n: number): Promise<number[]> => {
    const deadline = Date.now() + 60_000;
    while (pids().length < n) {
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`not ${n} processes listening:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return pids();
  };
  const largeReadProcess = async (): Promise<number> => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      const line = output.split("\n").find((l) => l.includes("large-read process listening"));
      if (line !== undefined) return (JSON.parse(line) as { pid: number }).pid;
      if (Date.now() > deadline || child.exitCode !== null)
        throw new Error(`no large-read process:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  return { child, exited, listening, largeReadProcess, output: () => output };
}
