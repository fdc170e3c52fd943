import { randomUUID } from "node:crypto";
import { ensureTopics } from "@vu/infra";
import { Kafka, logLevel } from "kafkajs";

/** The stack the integration project's global setup resolved (also in the environment). */
export const brokers = (): string[] => (process.env.KAFKA_BROKERS ?? "127.0.0.1:9092").split(",");
export const sharedRedisUrl = (): string => process.env.REDIS_URL ?? "redis://127.0.0.1:6379";

export function kafkaClient(brokerList: string[] = brokers()): Kafka {
  return new Kafka({
    clientId: `e2e-${randomUUID().slice(0, 8)}`,
    brokers: brokerList,
    logLevel: logLevel.NOTHING,
    // Short retries: a test that waits for a restarted broker polls on its own.
    retry: { initialRetryTime: 100, retries: 8 },
  });
}

export interface IsolatedNames {
  topic: string;
  dlqTopic: string;
  groupId: string;
  /** Redis key prefix: letters, digits, - and _ (the worker's REDIS_PREFIX rule). */
  prefix: string;
}

/** A topic pair with 6 partitions, a group and a key prefix of this test's own (isolation by uniqueness). */
export async function isolatedNames(suite: string, brokerList: string[] = brokers()): Promise<IsolatedNames> {
  const id = randomUUID().slice(0, 8);
  const names = {
    topic: `e2e-${suite}-${id}`,
    dlqTopic: `e2e-${suite}-${id}.dlq`,
    groupId: `e2e-${suite}-${id}`,
    prefix: `e2e-${suite}-${id}`,
  };
  await ensureTopics(brokerList, { topic: names.topic, dlqTopic: names.dlqTopic, partitions: 6 });
  return names;
}
