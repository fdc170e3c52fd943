import { createTokenRecordProducer } from "@vu/events";
import { ensureTopics } from "@vu/infra";
import { createToken } from "@vu/query-api";
import { createKeyspace, createTokenStore, type RedisClient } from "@vu/store";
import { brokers, type IsolatedNames } from "@vu/testkit";
import type { Kafka } from "kafkajs";

/**
 * Tokens made as the tokens CLI makes them (Redis and the compacted tokens topic), so that they
 * survive a Redis loss: the worker restores them from the topic. The topic is this test's own;
 * give the worker `TOKENS_TOPIC: tokensTopic`.
 */
export async function durableTokens(kafka: Kafka, redis: RedisClient, names: IsolatedNames) {
  const tokensTopic = `${names.topic}.tokens`;
  await ensureTopics(brokers(), { topic: names.topic, dlqTopic: names.dlqTopic, tokensTopic });
  const records = createTokenRecordProducer({ kafka, topic: tokensTopic });
  await records.connect();
  const tokens = createTokenStore({ redis, keyspace: createKeyspace({ prefix: names.prefix }) });
  return {
    tokensTopic,
    create: async (org: string) => (await createToken({ tokens, records }, org, "fault test")).token,
    close: () => records.disconnect(),
  };
}
