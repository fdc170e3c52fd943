import { createTokenRecordProducer, type TokenRecordProducer } from "@vu/events";
import { ensureTopics } from "@vu/infra";
import { createToken } from "@vu/query-api";
import { createKeyspace, createTokenStore, type RedisClient, type TokenAdminStore } from "@vu/store";
import type { Kafka } from "kafkajs";
import type { IsolatedNames } from "./names";
import { brokers } from "./stackEnv";

export interface DurableTokens {
  /** This test's own compacted tokens topic: give the worker `TOKENS_TOPIC: tokensTopic`. */
  tokensTopic: string;
  /** The topics `ensureTopics` created for it (the recordings pair and the tokens topic). */
  created: string[];
  records: TokenRecordProducer;
  /** The token store under the test's prefix. */
  tokens: TokenAdminStore;
  /** A token for `org`, made as the tokens CLI makes it: in Redis and on the tokens topic. */
  create(org: string, label?: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * Tokens made as the tokens CLI makes them (Redis and the compacted tokens topic), so that they
 * survive a Redis loss: the worker restores them from the topic. The topics (`names`' pair and
 * `<topic>.tokens`) are created by the stack's `ensureTopics`, with `partitions` each (default 6).
 */
export async function durableTokens(
  kafka: Kafka,
  redis: RedisClient,
  names: IsolatedNames,
  options: { partitions?: number } = {},
): Promise<DurableTokens> {
  const tokensTopic = `${names.topic}.tokens`;
  const { created } = await ensureTopics(brokers(), {
    topic: names.topic,
    dlqTopic: names.dlqTopic,
    tokensTopic,
    partitions: options.partitions,
  });
  const records = createTokenRecordProducer({ kafka, topic: tokensTopic });
  await records.connect();
  const tokens = createTokenStore({ redis, keyspace: createKeyspace({ prefix: names.prefix }) });
  return {
    tokensTopic,
    created,
    records,
    tokens,
    create: async (org, label = "test") => (await createToken({ tokens, records }, org, label)).token,
    close: () => records.disconnect(),
  };
}
