import { type Logger, type Readiness, RetryAbortedError, retryWithBackoff } from "@vu/service-runtime";
import type { IngestWorker } from "./app";

export interface WorkerSupervisorOptions {
  /** Builds a fresh worker (a new consumer) for the first start and each restart. */
  create: () => IngestWorker;
  logger: Logger;
  /** Called with each worker built, before it starts: tests watch its consumer's events here. */
  onIncarnation?: (worker: IngestWorker) => void;
  /** Backoff between restart attempts. Default 1 s doubling to 30 s. */
  initialDelayMs?: number;
  maxDelayMs?: number;
}

export interface WorkerSupervisor {
  /** The worker running now. */
  current(): IngestWorker;
  start(): Promise<void>;
  /** Stops the current worker and any restart in progress. */
  stop(): Promise<void>;
  ready(): Promise<Readiness>;
  /** Workers started after a crash kafkajs does not restart from. */
  readonly restarts: number;
}

/**
 * kafkajs restarts its consumer after most failures, but gives up on some (e.g. no group
 * coordinator after a long broker outage). Then the supervisor starts a fresh worker, with backoff,
 * instead of exiting: an outage pauses ingest, it does not end it. Nothing is lost either way, since
 * offsets are committed only after Redis has the batch. The service (`runWorker.ts`) and the tests' in-process
 * worker both run this.
 */
export function createWorkerSupervisor(options: WorkerSupervisorOptions): WorkerSupervisor {
  const { logger } = options;
  let stopping = false;
  let restarts = 0;

  const incarnation = (): IngestWorker => {
    const worker = options.create();
    options.onIncarnation?.(worker);
    worker.consumer.on(worker.consumer.events.CRASH, ({ payload }) => {
      logger.error({ err: payload.error, restart: payload.restart }, "consumer crashed");
      if (!payload.restart && !stopping) void replace(worker);
    });
    return worker;
  };
  let current = incarnation();

  async function replace(crashed: IngestWorker): Promise<void> {
    await crashed.stop().catch(() => undefined);
    try {
      current = await retryWithBackoff(
        async () => {
          restarts++;
          const next = incarnation();
          try {
            await next.start();
            return next;
          } catch (error) {
            await next.stop().catch(() => undefined);
            throw error;
          }
        },
        {
          shouldContinue: () => !stopping,
          initialDelayMs: options.initialDelayMs ?? 1_000,
          maxDelayMs: options.maxDelayMs ?? 30_000,
          onRetry: (error, attempt) => logger.warn({ err: error, attempt }, "restarting the consumer"),
        },
      );
    } catch (error) {
      if (error instanceof RetryAbortedError) return;
      throw error;
    }
    // Stopped while this worker was starting: `stop` met the crashed one, so stop this one here.
    if (stopping) await current.stop().catch(() => undefined);
    else logger.info("consumer restarted");
  }

  return {
    current: () => current,
    start: () => current.start(),
    async stop() {
      stopping = true;
      await current.stop();
    },
    ready: () => current.ready(),
    get restarts() {
      return restarts;
    },
  };
}
