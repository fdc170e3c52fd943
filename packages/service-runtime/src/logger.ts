import { type DestinationStream, type Logger, pino } from "pino";

export type { Logger } from "pino";

/**
 * Bytes of log lines held while stdout does not take them: past it, lines are dropped rather than
 * the process' memory growing with a stalled pipe.
 */
export const LOG_BUFFER_BYTES = 16 * 1024 * 1024;

/** Asynchronous stdout (or `dest`), holding at most `maxBytes` not yet written. */
export function logDestination(dest = 1, maxBytes = LOG_BUFFER_BYTES): DestinationStream {
  return pino.destination({ dest, sync: false, maxLength: maxBytes });
}

/**
 * Structured JSON logs. Authorization headers and anything named like a token are redacted at the
 * logger, so no call site can leak a bearer token by accident.
 *
 * Lines go to stdout asynchronously: the API logs a line per request, and a synchronous write per
 * line held the event loop for as long as the file or pipe took it. While one write is under way
 * the next lines gather and go in one, up to LOG_BUFFER_BYTES; pino writes what is left
 * synchronously when the process exits (pino.destination's exit hook), not when it is killed.
 */
export function createLogger(name: string, level = "info"): Logger {
  return pino(
    {
      name,
      level,
      redact: {
        paths: ["req.headers.authorization", "headers.authorization", "token", "*.token"],
        censor: "[redacted]",
      },
    },
    logDestination(),
  );
}
