import cluster, { type Worker } from "node:cluster";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Logger } from "@vu/service-runtime";
import { AggregatorRegistry, type Registry } from "prom-client";
import { z } from "zod";
import type { ApiConfig } from "./app";

/**
 * The API on several cores: Node's cluster module forks API processes that share the listening
 * port (the primary hands connections round-robin), so one process busy computing a large answer
 * holds up only the requests it was handed. Everything the processes must agree on is in Redis
 * already (tokens, the rate limit, the data); caches, the per-organization gate and the limit on
 * unknown tokens are per process. The primary serves no request: it forks, replaces a process that
 * died, stops them all on SIGTERM/SIGINT, and sums their metrics for whichever one is scraped.
 *
 * One more process makes the large reads (largeReads.ts), at a lower scheduling priority
 * (`LARGE_READ_NICE`): the others hand it every request that would make one, over a Unix socket
 * of the primary's private directory (http/largeReadForwarding.ts). When the cores are busy, the
 * operating system then runs ordinary questions first, and a heavy question waits for a core
 * instead of holding up every request its process was handed.
 */

/** The large-read process' nice value: it gets a core's leftovers when the others want it. */
export const LARGE_READ_NICE = 10;

/** What the primary tells each process it forks (its environment), read back by `processRole`. */
const ROLE_ENV = z.object({
  VU_API_ROLE: z.enum(["forwards", "largeReads"]).optional(),
  VU_LARGE_READ_SOCKET: z.string().min(1).optional(),
});

/** A forked process' part (ApiConfig `role`) and the large-read process' socket. */
export interface ProcessRole {
  kind: NonNullable<ApiConfig["role"]>["kind"];
  socketPath: string;
}

/** This process' part, as the primary forked it; undefined for a lone API process. */
export function processRole(env: NodeJS.ProcessEnv = process.env): ProcessRole | undefined {
  const { VU_API_ROLE: kind, VU_LARGE_READ_SOCKET: socketPath } = ROLE_ENV.parse(env);
  return kind === undefined || socketPath === undefined ? undefined : { kind, socketPath };
}

const METRICS_REQUEST = "vu:metrics-request";
/**
 * Sent by a process once it listens on everything it must: the port and the ops port, or the
 * large-read process' socket (`exclusive`: the primary does not see that one otherwise). A process
 * that exits before it failed to start; Node's `listening` event would come after the first port.
 */
export const PROCESS_SERVING = "vu:serving";
const METRICS_REPLY = "vu:metrics-reply";
/** As long as prom-client's own wait for the processes' metrics. */
const METRICS_TIMEOUT_MS = 5_000;

interface MetricsRequest {
  type: typeof METRICS_REQUEST;
  id: number;
}
interface MetricsReply {
  type: typeof METRICS_REPLY;
  id: number;
  text?: string;
  error?: string;
}

export interface PrimaryOptions {
  processes: number;
  logger: Logger;
  /** A process that dies after it listened is replaced after this long (no crash loop at full speed). */
  restartDelayMs?: number;
}

/** Runs the cluster's primary: forks the processes and looks after them until it is stopped. */
export function runPrimary({ processes, logger, restartDelayMs = 1_000 }: PrimaryOptions): void {
  const aggregator = new AggregatorRegistry();
  let stopping = false;
  const alive = () =>
    Object.values(cluster.workers ?? {}).filter((w): w is Worker => w !== undefined && !w.isDead());
  const socketDir = mkdtempSync(join(tmpdir(), "vu-api-"));
  const socketPath = join(socketDir, "large-reads.sock");
  process.on("exit", () => rmSync(socketDir, { recursive: true, force: true }));

  const fork = (role: "forwards" | "largeReads") => {
    const worker = cluster.fork({ VU_API_ROLE: role, VU_LARGE_READ_SOCKET: socketPath });
    let listened = false;
    worker.on("message", (message: unknown) => {
      if (isType(message, PROCESS_SERVING)) listened = true;
      else void answerMetrics(worker, message);
    });
    worker.on("exit", (code, signal) => {
      if (stopping) {
        if (alive().length === 0) process.exit();
        return;
      }
      // One that never listened (a port in use, bad config) would fail again: stop, as one process would.
      if (!listened) {
        logger.error({ pid: worker.process.pid, code, signal }, "an API process failed to start; stopping");
        stop("startup failure", code ?? 1);
        return;
      }
      logger.error({ pid: worker.process.pid, code, signal }, "an API process exited; starting another");
      setTimeout(() => {
        if (!stopping) fork(role);
      }, restartDelayMs);
    });
  };

  async function answerMetrics(worker: Worker, message: unknown) {
    if (!isMetricsRequest(message)) return;
    const reply: MetricsReply = { type: METRICS_REPLY, id: message.id };
    try {
      reply.text = await aggregator.clusterMetrics();
    } catch (error) {
      reply.error = error instanceof Error ? error.message : String(error);
    }
    if (worker.isConnected()) worker.send(reply);
  }

  function stop(reason: string, exitCode = 0) {
    if (stopping) return;
    stopping = true;
    logger.info({ reason }, "stopping the API processes");
    const workers = alive();
    process.exitCode = exitCode;
    if (workers.length === 0) process.exit();
    for (const worker of workers) worker.process.kill("SIGTERM");
  }

  process.on("SIGTERM", () => stop("SIGTERM"));
  process.on("SIGINT", () => stop("SIGINT"));
  logger.info({ processes, largeReads: socketPath }, "starting API processes and the large-read process");
  for (let i = 0; i < processes; i++) fork("forwards");
  fork("largeReads");
}

/**
 * In an API process of a cluster: the text of every process's metrics summed, asked of the
 * primary (a scrape reaches one process; its own counters would be a fraction of the whole).
 */
export function metricsOfAllProcesses(registry: Registry): () => Promise<string> {
  AggregatorRegistry.setRegistries([registry]);
  // Constructing one installs prom-client's listener that sends this process's metrics to the primary.
  new AggregatorRegistry();
  let next = 0;
  const waiting = new Map<number, (reply: MetricsReply) => void>();
  process.on("message", (message: unknown) => {
    if (!isMetricsReply(message)) return;
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  });
  return () =>
    new Promise<string>((resolve, reject) => {
      const id = next++;
      const timer = setTimeout(() => {
        waiting.delete(id);
        reject(new Error("the cluster's primary did not send the metrics in time"));
      }, METRICS_TIMEOUT_MS + 1_000);
      waiting.set(id, (reply) => {
        clearTimeout(timer);
        if (reply.text !== undefined) resolve(reply.text);
        else reject(new Error(`the cluster's metrics: ${reply.error ?? "no answer"}`));
      });
      process.send?.({ type: METRICS_REQUEST, id } satisfies MetricsRequest);
    });
}

const isType = (m: unknown, type: string): boolean =>
  typeof m === "object" && m !== null && (m as { type?: unknown }).type === type;
const isMetricsRequest = (m: unknown): m is MetricsRequest =>
  typeof m === "object" && m !== null && (m as MetricsRequest).type === METRICS_REQUEST;
const isMetricsReply = (m: unknown): m is MetricsReply =>
  typeof m === "object" && m !== null && (m as MetricsReply).type === METRICS_REPLY;
