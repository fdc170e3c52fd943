import type { Logger } from "pino";

/** kafkajs's numeric levels (its `logLevel` enum), kept here to avoid a kafkajs dependency. */
const KAFKA_LEVEL = { NOTHING: 0, ERROR: 1, WARN: 2, INFO: 4, DEBUG: 5 } as const;

interface KafkaLogEntry {
  namespace: string;
  level: number;
  label: string;
  log: { message: string } & Record<string, unknown>;
}

/**
 * A kafkajs `logCreator` that writes through the service's pino logger, so Kafka's messages share
 * its format and its LOG_LEVEL instead of going to the console on their own.
 */
export function kafkaLogCreator(logger: Logger) {
  const kafkaLogger = logger.child({ component: "kafkajs" });
  return () =>
    ({ namespace, level, log }: KafkaLogEntry): void => {
      const { message, timestamp: _timestamp, logger: _name, ...extra } = log;
      const fields = { namespace, ...extra };
      if (level === KAFKA_LEVEL.ERROR) kafkaLogger.error(fields, message);
      else if (level === KAFKA_LEVEL.WARN) kafkaLogger.warn(fields, message);
      else if (level === KAFKA_LEVEL.INFO) kafkaLogger.info(fields, message);
      else kafkaLogger.debug(fields, message);
    };
}

/** The kafkajs level matching a pino level, so kafkajs does not even build messages pino drops. */
export function kafkaLogLevel(pinoLevel: string): number {
  switch (pinoLevel) {
    case "trace":
    case "debug":
      return KAFKA_LEVEL.DEBUG;
    case "info":
      return KAFKA_LEVEL.INFO;
    case "warn":
      return KAFKA_LEVEL.WARN;
    case "error":
      return KAFKA_LEVEL.ERROR;
    default:
      return KAFKA_LEVEL.NOTHING;
  }
}
