// What `npm run tokens -- create|revoke` does, importable (the CLI script parses arguments and
// prints; tests call these). Every change is written to Redis, which serves tokens, and to the
// compacted tokens topic, the durable record a lost Redis is restored from (the ingest worker's
// `restoreTokens`). A command reports success only once both have it.
import {
  type DurableTokenRecord,
  latestTokenRecords,
  type ReadTokenTopicOptions,
  TOKENS_TOPIC,
  type TokenRecordProducer,
} from "@vu/events";
import { checkKafkaSasl, kafkaEnvShape, redisEnvShape, tokenSigningEnvShape } from "@vu/service-runtime";
import { mintToken, type TokenAdminStore, type TokenRecord } from "@vu/store";
import { z } from "zod";

/**
 * The CLI's environment: where Redis is, where the tokens topic is (and how to log in to Kafka:
 * KAFKA_SASL_*), and the key records are signed with.
 */
export const tokensCliEnvSchema = z
  .object({
    ...redisEnvShape,
    ...kafkaEnvShape,
    TOKENS_TOPIC: z.string().min(1).default(TOKENS_TOPIC),
    ...tokenSigningEnvShape,
  })
  .superRefine(checkKafkaSasl);

export type TokensCliEnv = z.output<typeof tokensCliEnvSchema>;

export interface TokenCommandDeps {
  /** The store (`createTokenStore`); the commands use only these two of its methods. */
  tokens: Pick<TokenAdminStore, "restore" | "recordById">;
  /** The tokens topic's producer (`createTokenRecordProducer`, signing), connected. */
  records: Pick<TokenRecordProducer, "send">;
  /**
   * The organization's token `id` with its hash as the tokens topic has it (its latest signed
   * record), for a token Redis does not have; null when the topic has none.
   */
  findInTopic(org: string, id: string): Promise<{ hash: string; record: DurableTokenRecord } | null>;
  now?: () => Date;
}

/**
 * `TokenCommandDeps.findInTopic` on the tokens topic: reads it to its end and takes the latest
 * record of the organization's token `id` among those signed with a key of `signer`.
 */
export function topicTokenFinder(
  options: Omit<ReadTokenTopicOptions, "onRecord" | "from">,
): TokenCommandDeps["findInTopic"] {
  return async (org, id) => {
    const { latest } = await latestTokenRecords(options);
    for (const [hash, record] of latest) {
      if (record.org === org && record.id === id) return { hash, record };
    }
    return null;
  };
}

/** A command that could not finish: `message` says what state it left and what to do. */
export class TokenCommandError extends Error {
  override name = "TokenCommandError";
}

const durable = ({ id, org, label, createdAt, revokedAt }: TokenRecord): DurableTokenRecord => ({
  id,
  org,
  label,
  createdAt,
  revokedAt,
});

/**
 * Creates a token: Kafka first, then Redis. A token becomes usable only when Redis has it, so
 * writing the durable record first means no token is ever accepted that a restore would not bring
 * back. If Redis then fails, the secret is never shown, and the record is revoked in the topic
 * (best effort) so a restore does not list a token nobody holds; were that send to fail too, the
 * orphan is still harmless: it is active in the topic only, and its secret exists nowhere.
 */
export async function createToken(
  { tokens, records, now = () => new Date() }: Omit<TokenCommandDeps, "findInTopic">,
  org: string,
  label: string,
): Promise<{ token: string; record: TokenRecord }> {
  const { token, hash, record: minted } = mintToken(org, label, now());
  const record = durable(minted);
  try {
    // Validates the record before anything is written (a label over the topic's limit stops here).
    await records.send(hash, record);
  } catch (cause) {
    throw new TokenCommandError(
      `the tokens topic did not take the token's record (${(cause as Error).message}); nothing was created`,
      { cause },
    );
  }
  try {
    await tokens.restore(hash, record);
  } catch (cause) {
    await records.send(hash, { ...record, revokedAt: now().toISOString() }).catch(() => undefined);
    throw new TokenCommandError(
      `the token could not be stored in Redis (${(cause as Error).message}); it was not created, try again`,
      { cause },
    );
  }
  return { token, record: { ...record, lastUsedAt: null } };
}

/**
 * Revokes a token: the tokens topic first, then Redis. The topic is the record of revocations: a
 * restore keeps a token revoked once the topic says so, and the ingest worker writes every revocation
 * in the topic to Redis again and again (`TOKENS_REVOCATION_CHECK_MS`), so a revocation the topic
 * has survives Redis losing it or going back to an older state. Redis, which refuses the token, is
 * written at once after; a command reports success only once both have it.
 *
 * The token is found in Redis, or, when Redis does not have it (it lost its data, and the worker
 * has not restored it yet) or cannot be read, in the tokens topic by its id and organization. A
 * token revoked before keeps its first revocation time, so running the command again sends the
 * same record. Null when neither has the organization's token `id`.
 */
export async function revokeToken(
  { tokens, records, findInTopic, now = () => new Date() }: TokenCommandDeps,
  org: string,
  id: string,
): Promise<TokenRecord | null> {
  let redisProblem: string | undefined;
  let found: { hash: string; record: DurableTokenRecord; lastUsedAt: string | null } | null = null;
  try {
    const inRedis = await tokens.recordById(org, id);
    if (inRedis !== null)
      found = { ...inRedis, record: durable(inRedis.record), lastUsedAt: inRedis.record.lastUsedAt };
  } catch (cause) {
    redisProblem = (cause as Error).message;
  }
  if (found === null) {
    let inTopic: Awaited<ReturnType<typeof findInTopic>>;
    try {
      inTopic = await findInTopic(org, id);
    } catch (cause) {
      throw new TokenCommandError(
        `token ${id} is not in Redis${redisProblem === undefined ? "" : ` (${redisProblem})`} and the tokens topic ` +
          `could not be read (${(cause as Error).message}); nothing was changed, run the revoke again`,
        { cause },
      );
    }
    if (inTopic === null) {
      if (redisProblem === undefined) return null;
      throw new TokenCommandError(
        `Redis could not be read (${redisProblem}) and the tokens topic has no token ${id} of ${org}; nothing was changed`,
      );
    }
    found = { ...inTopic, lastUsedAt: null };
  }
  const { hash, lastUsedAt } = found;
  const record: DurableTokenRecord = {
    ...found.record,
    revokedAt: found.record.revokedAt ?? now().toISOString(),
  };
  try {
    await records.send(hash, record);
  } catch (cause) {
    throw new TokenCommandError(
      `the tokens topic did not take the revocation of token ${id} (${(cause as Error).message}); ` +
        "nothing was changed, run the revoke again",
      { cause },
    );
  }
  try {
    await tokens.restore(hash, record);
  } catch (cause) {
    throw new TokenCommandError(
      `token ${id} is revoked in the tokens topic (a restore keeps it revoked, and the ingest worker writes ` +
        `the revocation to Redis within TOKENS_REVOCATION_CHECK_MS) but Redis did not take it ` +
        `(${(cause as Error).message}); until one of them does, the token may still be accepted: run the revoke again`,
      { cause },
    );
  }
  return { ...record, lastUsedAt };
}
