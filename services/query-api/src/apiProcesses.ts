import cluster, { type Worker } from "node:cluster";
import type { Logger } from "@vu/service-runtime";
import { AggregatorRegistry, type Registry } from "prom-client";

/**
 * The API on several cores: Node's cluster module forks API processes that share the listening
 * port (the primary hands connections round-robin), so one process busy computing a large answer
 * holds up only the requests it was handed. Everything the processes must agree on is in Redis
 * already (tokens, the rate limit, the data); caches, the per-organization gate and the limit on
 * unknown tokens are per process. The primary serves no request: it forks, replaces a process that
 * died, stops them all on SIGTERM/SIGINT, and sums their metrics for whichever one is scraped.
 */

const METRICS_REQUEST = "vu:metrics-request";
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

  const fork = () => {
    const worker = cluster.fork();
    let listened = false;
    worker.on("listening", () => {
      listened = true;
    });
    worker.on("message", (message: unknown) => void answerMetrics(worker, message));
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
        if (!stopping) fork();
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
  logger.info({ processes }, "starting API processes");
  for (let i = 0; i < processes; i++) fork();
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

const isMetricsRequest = (m: unknown): m is MetricsRequest =>
  typeof m === "object" && m !== null && (m as MetricsRequest).type === METRICS_REQUEST;
const isMetricsReply = (m: unknown): m is MetricsReply =>
  typeof m === "object" && m !== null && (m as MetricsReply).type === METRICS_REPLY;
