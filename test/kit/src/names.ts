import { randomUUID } from "node:crypto";

/** Eight random hex digits: short enough for key names, unique enough for a test run. */
export const uniqueId = (): string => randomUUID().slice(0, 8);

export interface IsolatedNames {
  topic: string;
  dlqTopic: string;
  groupId: string;
  /** Redis key prefix: letters, digits, - and _ (the services' REDIS_PREFIX rule). */
  prefix: string;
}

/**
 * A topic pair, consumer group and key prefix no other test uses (isolation by uniqueness, never
 * by flushing). `suite` makes them easy to find in Kafka and Redis.
 */
export function isolatedNames(suite: string): IsolatedNames {
  const base = `test-${suite}-${uniqueId()}`;
  return { topic: base, dlqTopic: `${base}.dlq`, groupId: base, prefix: base };
}

/** A key prefix of this test's own, for tests that need Redis but no topics. */
export const uniquePrefix = (suite = "store"): string => `test-${suite}-${uniqueId()}`;
