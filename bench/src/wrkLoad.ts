import { spawn } from "node:child_process";
import { ensureDebianPackage } from "@vu/infra";
import { log } from "./log";
import { processCpuSeconds } from "./processCpu";

/**
 * wrk (Debian's `wrk` package) as the throughput runs' load generator: a C program with one
 * thread and epoll, it drives 200 connections on a fraction of the core autocannon needs in the
 * bench's own process, so the cores measured are the API's. Installed from Debian's packages
 * when missing (as root); autocannon where that fails (the report says which).
 */
export interface WrkRun {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** Non-2xx answers and socket errors (connect, read, write, time-outs). */
  errors: number;
  /** CPU seconds wrk used. */
  cpuSeconds: number;
}

/** Whether wrk is there, installing it first when it can. */
export async function wrkInstalled(): Promise<boolean> {
  try {
    await ensureDebianPackage("wrk", "wrk", log);
    return true;
  } catch (error) {
    log(`wrk unavailable, autocannon in the bench's process instead: ${(error as Error).message}`);
    return false;
  }
}

/** Runs wrk closed-loop: `connections` at once on one thread, keep-alive, for `durationS`. */
export function runWrk(
  url: string,
  token: string,
  connections: number,
  durationS: number,
  headers: Record<string, string> = {},
): Promise<WrkRun> {
  return new Promise((resolve, reject) => {
    const args = ["-t1", `-c${connections}`, `-d${durationS}s`, "--latency", "--timeout", "10s"];
    const headerArgs = Object.entries({ ...headers, authorization: `Bearer ${token}` }).flatMap(
      ([name, value]) => ["-H", `${name}: ${value}`],
    );
    const child = spawn("wrk", [...args, ...headerArgs, url]);
    let output = "";
    let cpuSeconds = 0;
    // /proc forgets a process once it has exited: its CPU is sampled while it runs.
    const sampler = setInterval(() => {
      if (child.pid !== undefined) cpuSeconds = Math.max(cpuSeconds, processCpuSeconds(child.pid));
    }, 250);
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    child.stderr.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    child.once("error", (error) => {
      clearInterval(sampler);
      reject(error);
    });
    child.once("exit", (code) => {
      clearInterval(sampler);
      if (code !== 0) return reject(new Error(`wrk exited with ${code}:\n${output}`));
      try {
        resolve({ ...parseWrk(output), cpuSeconds });
      } catch (error) {
        reject(error);
      }
    });
  });
}

const UNIT_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000 };

/** The numbers of wrk's text report (`--latency`). */
export function parseWrk(output: string): Omit<WrkRun, "cpuSeconds"> {
  const latency = (percent: string) => {
    const match = new RegExp(`^\\s+${percent}%\\s+([\\d.]+)(us|ms|s|m)\\s*$`, "m").exec(output);
    if (!match) throw new Error(`wrk's report has no ${percent}% latency:\n${output}`);
    return Number(match[1]) * (UNIT_MS[match[2] as string] ?? Number.NaN);
  };
  const rate = /^Requests\/sec:\s+([\d.]+)/m.exec(output);
  if (!rate) throw new Error(`wrk's report has no Requests/sec:\n${output}`);
  const non2xx = Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0);
  const socket = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
  const socketErrors = socket ? socket.slice(1).reduce((n, v) => n + Number(v), 0) : 0;
  return {
    requestsPerSecond: Number(rate[1]),
    p50: latency("50"),
    p99: latency("99"),
    errors: non2xx + socketErrors,
  };
}
