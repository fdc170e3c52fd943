import type { Server } from "node:http";
import type { Logger } from "pino";

export class ListenError extends Error {
  readonly port: number;

  constructor(port: number, cause: unknown) {
    const code = (cause as { code?: unknown } | null)?.code;
    const why =
      code === "EADDRINUSE"
        ? "the port is already in use"
        : code === "EACCES"
          ? "permission denied"
          : cause instanceof Error
            ? cause.message
            : String(cause);
    super(`cannot listen on port ${port}: ${why}`, { cause });
    this.name = "ListenError";
    this.port = port;
  }
}

/**
 * Listens, resolving once the port is bound and rejecting with a ListenError when it cannot be.
 * Express 5's `app.listen(port, callback)` hands a bind error to the callback as an argument, so a
 * callback that only logs "listening" reports a server that is not there (docs/contract.md §6: a second
 * replica on a taken port must stop, not look alive).
 */
export function listen(server: Server, port: number, host?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (error: unknown) => reject(new ListenError(port, error));
    server.once("error", onError);
    server.listen(port, host, () => {
      server.off("error", onError);
      resolve();
    });
  });
}

export interface ListenOrExitOptions {
  logger: Logger;
  /** Run before the exit, e.g. to drop connections that would otherwise be left half-open. */
  beforeExit?: () => void;
}

/**
 * `listen`, or, when the port cannot be bound, a fatal log saying why and exit code 1: a replica
 * that cannot listen must stop, not live on looking healthy (docs/contract.md §6). Both services'
 * `runApi.ts` / `runWorker.ts`.
 */
export async function listenOrExit(
  server: Server,
  port: number,
  options: ListenOrExitOptions,
): Promise<void> {
  try {
    await listen(server, port);
  } catch (error) {
    options.logger.fatal({ err: error, port }, error instanceof Error ? error.message : "cannot listen");
    options.beforeExit?.();
    process.exit(1);
  }
}
