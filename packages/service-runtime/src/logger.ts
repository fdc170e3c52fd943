import { type Logger, pino } from "pino";

export type { Logger } from "pino";

/**
 * Structured JSON logs. Authorization headers and anything named like a token are redacted at the
 * logger, so no call site can leak a bearer token by accident.
 *
 * Lines go to stdout asynchronously: the API logs a line per request, and a synchronous write per
 * line held the event loop for as long as the file or pipe took it. While one write is under way
 * the next lines gather and go in one; pino writes what is left synchronously when the process
 * exits (pino.destination's exit hook).
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
    pino.destination({ dest: 1, sync: false }),
  );
}
