import {
  createTokenRecordProducer,
  createTokenRecordSigner,
  type TokenRecordProducer,
  type TokenRecordSigner,
} from "@vu/events";
import { ensureTopics } from "@vu/infra";
import { createToken, type TokenCommandDeps, topicTokenFinder } from "@vu/query-api";
import { createKeyspace, createTokenStore, type RedisClient, type TokenAdminStore } from "@vu/store";
import type { Kafka } from "kafkajs";
import type { IsolatedNames } from "./names";
import { brokers, TEST_TOKENS_SIGNING_KEY } from "./stackEnv";

/** Signs and verifies with the test kit's key, as the workers the test kit starts do. */
export const testTokenSigner = (): TokenRecordSigner =>
  createTokenRecordSigner({ current: TEST_TOKENS_SIGNING_KEY });

export interface DurableTokens {
  /** This test's own compacted tokens topic: give the worker `TOKENS_TOPIC: tokensTopic`. */
  tokensTopic: string;
  /** The topics `ensureTopics` created for it (the recordings pair and the tokens topic). */
  created: string[];
  records: TokenRecordProducer;
  /** The token store under the test's prefix. */
  tokens: TokenAdminStore;
  /** What the tokens CLI's `create` and `revoke` use, on this test's topic and prefix. */
  deps: TokenCommandDeps;
  /** A token for `org`, made as the tokens CLI makes it: in Redis and on the tokens topic. */
  create(org: string, label?: string): Promise<string>;
  close(): Promise<void>;
}

/**
 * Tokens made as the tokens CLI makes them (Redis and the compacted tokens topic, records signed
 * with the test kit's key), so that they survive a Redis loss: the worker restores them from the
 * topic. The topics (`names`' pair and `<topic>.tokens`) are created by the stack's `ensureTopics`,
 * with `partitions` each (default 6).
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
  const signer = testTokenSigner();
  const records = createTokenRecordProducer({ kafka, topic: tokensTopic, signer });
  await records.connect();
  const tokens = createTokenStore({ redis, keyspace: createKeyspace({ prefix: names.prefix }) });
  const deps: TokenCommandDeps = {
    tokens,
    records,
    findInTopic: topicTokenFinder({ kafka, topic: tokensTopic, signer, onRefused: () => undefined }),
  };
  return {
    tokensTopic,
    created,
    records,
    tokens,
    deps,
    create: async (org, label = "test") => (await createToken(deps, org, label)).token,
    close: () => records.disconnect(),
  };
}
