import type { Logger } from "pino";

export interface ShutdownOptions {
  logger: Logger;
  /** After this, the process exits even if a step hangs. */
  forceAfterMs?: number;
}

/**
 * Runs `steps` once on SIGTERM or SIGINT, in order, then exits. A timer forces the exit so a stuck
 * dependency cannot keep a stopping process alive forever.
 */
export function onShutdown(
  steps: Array<() => Promise<void>>,
  { logger, forceAfterMs = 15_000 }: ShutdownOptions,
): void {
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, "shutting down");
    const force = setTimeout(() => {
      logger.error({ forceAfterMs }, "shutdown timed out; exiting");
      process.exit(1);
    }, forceAfterMs);
    force.unref();
    let code = 0;
    for (const step of steps) {
      try {
        await step();
      } catch (error) {
        code = 1;
        logger.error({ err: error }, "shutdown step failed");
      }
    }
    process.exit(code);
  };
  // `on`, not `once`: under tsx (`npm run worker`) Ctrl-C can arrive twice, from the terminal and
  // relayed by the tsx parent, and a second signal without a listener would end the process in the
  // middle of its shutdown.
  process.on("SIGTERM", () => void stop("SIGTERM"));
  process.on("SIGINT", () => void stop("SIGINT"));
}
