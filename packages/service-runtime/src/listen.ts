import type { Server } from "node:http";

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
 * callback that only logs "listening" reports a server that is not there (CONTRACT §6: a second
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
