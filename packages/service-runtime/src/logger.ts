import { type Logger, pino } from "pino";

export type { Logger } from "pino";

/**
 * Structured JSON logs. Authorization headers and anything named like a token are redacted at the
 * logger, so no call site can leak a bearer token by accident.
 */
export function createLogger(name: string, level = "info"): Logger {
  return pino({
    name,
    level,
    redact: {
      paths: ["req.headers.authorization", "headers.authorization", "token", "*.token"],
      censor: "[redacted]",
    },
  });
}
