import { Kafka, logLevel } from "kafkajs";

/** "host:port,host:port" as in KAFKA_BROKERS, to the list kafkajs takes. */
export function parseBrokers(csv: string): string[] {
  return csv
    .split(",")
    .map((broker) => broker.trim())
    .filter((broker) => broker.length > 0);
}

/**
 * A client for infrastructure chores: silent (a broker that is still starting is expected, not news),
 * and without retries by default, so the caller's own polling decides how long to wait.
 */
export function quietKafka(brokers: string[], { timeoutMs = 2_000, retries = 0 } = {}): Kafka {
  return new Kafka({
    clientId: "vu-infra",
    brokers,
    logLevel: logLevel.NOTHING,
    connectionTimeout: timeoutMs,
    requestTimeout: timeoutMs,
    retry: { retries },
  });
}

/**
 * True when the brokers answer a metadata request. A KRaft broker opens its client listener only after
 * it has caught up with the metadata log and been unfenced, so an answer means it can serve topics.
 */
export async function kafkaAnswers(brokers: string[], timeoutMs = 2_000): Promise<boolean> {
  return clientAnswers(quietKafka(brokers, { timeoutMs }));
}

/** `kafkaAnswers` for a client of the caller's (one that logs in, say). */
export async function clientAnswers(kafka: Kafka): Promise<boolean> {
  const admin = kafka.admin();
  try {
    await admin.connect();
    await admin.listTopics();
    return true;
  } catch {
    return false;
  } finally {
    await admin.disconnect().catch(() => {});
  }
}
