// What `npm run tokens -- create|revoke` does, importable (the CLI script parses arguments and
// prints; tests call these). Every change is written to Redis, which serves tokens, and to the
// compacted tokens topic, the durable record a lost Redis is restored from (the ingest worker's
// `restoreTokens`). A command reports success only once both have it.
import { type DurableTokenRecord, TOKENS_TOPIC, type TokenRecordProducer } from "@vu/events";
import { envList, redisEnvShape } from "@vu/service-runtime";
import { mintToken, type TokenAdminStore, type TokenRecord } from "@vu/store";
import { z } from "zod";

/** The CLI's environment: where Redis is, and where the tokens topic is. */
export const tokensCliEnvSchema = z.object({
  ...redisEnvShape,
  KAFKA_BROKERS: envList("localhost:9092"),
  TOKENS_TOPIC: z.string().min(1).default(TOKENS_TOPIC),
});

export type TokensCliEnv = z.output<typeof tokensCliEnvSchema>;

export interface TokenCommandDeps {
  /** The store (`createTokenStore`); the commands use only these two of its methods. */
  tokens: Pick<TokenAdminStore, "restore" | "revokeRecord">;
  /** The tokens topic's producer (`createTokenRecordProducer`), connected. */
  records: Pick<TokenRecordProducer, "send">;
  now?: () => Date;
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
  { tokens, records, now = () => new Date() }: TokenCommandDeps,
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
 * Revokes a token: Redis first, then Kafka. Redis is what refuses a token, so revoking it there
 * first makes the token unusable at once, whatever happens next: if the send to Kafka then fails,
 * the error says so and the revoke is to be run again (it keeps the first revocation time and sends
 * the same record). Kafka first would leave the opposite window: a token revoked on record but
 * still accepted until Redis caught up — the unsafe side. The one risk left, a Redis loss before
 * the retry restoring the token as active, needs two failures and is closed by the retry.
 *
 * Null when the organization has no such token.
 */
export async function revokeToken(
  { tokens, records }: TokenCommandDeps,
  org: string,
  id: string,
): Promise<TokenRecord | null> {
  const revoked = await tokens.revokeRecord(org, id);
  if (revoked === null) return null;
  try {
    await records.send(revoked.hash, durable(revoked.record));
  } catch (cause) {
    throw new TokenCommandError(
      `token ${id} is revoked in Redis (refused from now on) but the tokens topic does not have the ` +
        `revocation yet (${(cause as Error).message}); run the revoke again, or a restore of Redis from ` +
        "the topic would bring the token back as active",
      { cause },
    );
  }
  return revoked.record;
}
