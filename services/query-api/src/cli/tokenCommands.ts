// What `npm run tokens -- create|revoke|resign` does, importable (the CLI script parses arguments
// and prints; tests call these). Every change is written to Redis, which serves tokens, and to the
// compacted tokens topic, the durable record a lost Redis is restored from (the ingest worker's
// `restoreTokens`). A command reports success only once both have it.
import {
  type DurableTokenRecord,
  decodeTokenRecord,
  latestTokenRecords,
  type ReadTokenTopicMessagesOptions,
  type ReadTokenTopicOptions,
  readTokenTopicMessages,
  TOKEN_HASH_PATTERN,
  TOKENS_TOPIC,
  type TokenRecordProducer,
  type TokenRecordSigner,
  type TokenTopicMessage,
  tokenRecordSchema,
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

/** The commands `npm run tokens -- <command>` takes (the README names no other: docsFacts.test.ts). */
export const TOKEN_COMMANDS = ["create", "list", "revoke", "resign"] as const;

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

export interface ResignDeps {
  /** The store (`createTokenStore`): every token Redis holds, and Redis's side of a revocation. */
  tokens: Pick<TokenAdminStore, "scanRecords" | "restore">;
  /** The tokens topic's producer (`createTokenRecordProducer`), connected, signing with `signer`'s key. */
  records: Pick<TokenRecordProducer, "send">;
  /** The keys the topic's records are checked with; `keyId` is the one `records` signs with. */
  signer: Pick<TokenRecordSigner, "keyId" | "verify">;
  /**
   * Every message of the tokens topic from `from` (default: its start) to where it ended when the
   * read started, which it returns per partition; null when the topic does not exist
   * (`topicMessageReader`).
   */
  readTopic(
    from: ReadonlyMap<number, bigint> | undefined,
    onMessage: (message: TokenTopicMessage) => void,
  ): Promise<Map<number, bigint> | null>;
  /**
   * Also take the revocations of records that are not signed (`resign --trust-unsigned-revocations`):
   * before signing, the CLI wrote them so; but anyone who may produce to the topic can write one,
   * so by default they are only reported (`unsignedRevocations`), never applied.
   */
  trustUnsignedRevocations?: boolean;
}

/** `ResignDeps.readTopic` on the tokens topic (`readTokenTopicMessages`). */
export function topicMessageReader(
  options: Omit<ReadTokenTopicMessagesOptions, "onMessage" | "from">,
): ResignDeps["readTopic"] {
  return (from, onMessage) =>
    readTokenTopicMessages({ ...options, ...(from === undefined ? {} : { from }), onMessage });
}

export interface ResignResult {
  /** Tokens whose record was written to the tokens topic, signed with the current key. */
  signed: number;
  /** Of those, the revoked ones. */
  revoked: number;
  /**
   * Tokens not written: the topic's latest record of the token is signed with the current key and
   * is the record resign would write.
   */
  skipped: number;
  /**
   * Tokens Redis showed active whose revocation the topic has (a record of the same hash, id and
   * organization, signed or not): signed revoked, and revoked in Redis too.
   */
  revokedFromTopic: Array<{ id: string; org: string; revokedAt: string }>;
  /**
   * Tokens Redis holds active that an unsigned record of the topic calls revoked, not trusted (see
   * `trustUnsignedRevocations`): signed as Redis has them. The operator revokes those that are genuine.
   */
  unsignedRevocations: Array<{ id: string; org: string; revokedAt: string }>;
  /** Tokens revoked (`revoke`) while resign ran, after it had signed them active: signed again, revoked. */
  revokedMeanwhile: number;
  /** Token keys without a whole record (only `revoked_at`, as the revocation watch writes one): no token. */
  incomplete: number;
  /** Tokens whose fields no record can carry (the topic's schema): not signed, a restore will not bring them back. */
  invalid: Array<{ id: string; org: string; problem: string }>;
  /**
   * Tokens the topic names that Redis does not hold and that no record a restore accepts restores
   * (unsigned, another key's, malformed): nothing vouches for them, they are not signed.
   */
  unverifiedNotInRedis: number;
}

/** What the tokens topic holds for one token (one hash). */
interface TopicToken {
  /**
   * Per partition, the token's last message there (what compaction keeps): its record and the id
   * of the key that signed it when it verifies, null for anything else (unsigned, another key's,
   * changed, malformed, a tombstone).
   */
  last: Map<number, { record: DurableTokenRecord; keyId: string } | null>;
  /** Every revocation a record of the topic makes that verifies. */
  revocations: DurableTokenRecord[];
  /**
   * Every revocation a record makes that does not (unsigned: written by a tokens CLI that did not
   * sign, or by anyone else who may write the topic).
   */
  unsignedRevocations: DurableTokenRecord[];
}

/** Takes each message of the tokens topic into `topic`, by the token's hash (the message key). */
function topicTokens(signer: ResignDeps["signer"], topic: Map<string, TopicToken>) {
  return (message: TokenTopicMessage): void => {
    const hash = message.key?.toString("utf8");
    // Not keyed by a token's hash: it names no token, and no restore takes it.
    if (hash === undefined || !TOKEN_HASH_PATTERN.test(hash)) return;
    let token = topic.get(hash);
    if (token === undefined) {
      token = { last: new Map(), revocations: [], unsignedRevocations: [] };
      topic.set(hash, token);
    }
    const decoded = decodeTokenRecord(message.key, message.value);
    if (!decoded.ok || decoded.record === null) {
      token.last.set(message.partition, null);
      return;
    }
    const check = signer.verify(hash, decoded.record, decoded.signature);
    token.last.set(message.partition, check.ok ? { record: decoded.record, keyId: check.keyId } : null);
    if (decoded.record.revokedAt !== null)
      (check.ok ? token.revocations : token.unsignedRevocations).push(decoded.record);
  };
}

/**
 * The first revocation of the token `record` names (its id and organization) among `revocations`:
 * a revocation only ever refuses the token it names. Null when there is none.
 */
function firstRevocation(
  record: DurableTokenRecord,
  revocations: readonly DurableTokenRecord[] | undefined,
): string | null {
  let first: string | null = null;
  for (const r of revocations ?? []) {
    if (r.id !== record.id || r.org !== record.org || r.revokedAt === null) continue;
    if (first === null || Date.parse(r.revokedAt) < Date.parse(first)) first = r.revokedAt;
  }
  return first;
}

const sameRecord = (a: DurableTokenRecord, b: DurableTokenRecord) =>
  a.id === b.id &&
  a.org === b.org &&
  a.label === b.label &&
  a.createdAt === b.createdAt &&
  a.revokedAt === b.revokedAt;

/**
 * Whether a restore would read `record`, signed with the current key, for the token whatever
 * compaction keeps: the token's last message in some partition is that record signed with `keyId`,
 * and its last message in no partition is a verified record saying something else.
 */
function signedAlready(token: TopicToken | undefined, record: DurableTokenRecord, keyId: string): boolean {
  let signed = false;
  for (const last of token?.last.values() ?? []) {
    if (last === null) continue;
    if (!sameRecord(last.record, record)) return false;
    if (last.keyId === keyId) signed = true;
  }
  return signed;
}

/** Why the tokens topic cannot carry this record (its schema), or null. */
function recordProblem(record: DurableTokenRecord): string | null {
  const parsed = tokenRecordSchema.safeParse({
    id: record.id,
    org: record.org,
    label: record.label,
    created_at: record.createdAt,
    revoked_at: record.revokedAt,
  });
  if (parsed.success) return null;
  return parsed.error.issues.map((i) => `${i.path.join(".") || "record"}: ${i.message}`).join("; ");
}

/**
 * Writes a signed record to the tokens topic for every token Redis holds, of every organization:
 * the upgrade path from a topic of unsigned records (which a restore refuses), and what makes the
 * records of a previous key (`TOKENS_SIGNING_KEYS_PREVIOUS`) records of the current one. Each
 * record is the token's as Redis has it, revoked when Redis or the topic (a record of its hash, id
 * and organization, signed or not) has it revoked, with the first revocation time; a revocation
 * only Redis lacked is written to Redis too, after the topic. A token whose latest record in the
 * topic is already that record signed with the current key is skipped, so a second run writes
 * nothing.
 *
 * Safe while the API, the worker and other commands run: the topic is read first, then Redis, so
 * a revocation is either in what was read or appended after it; once every record is written, what
 * the topic got meanwhile is read, and a token revoked there after this signed it active is signed
 * again, revoked. A new token (`create`) has its signed record already; this writes it again at most.
 * Idempotent: it can be run again at any time, in particular after a failure.
 */
export async function resignTokens({
  tokens,
  records,
  signer,
  readTopic,
  trustUnsignedRevocations = false,
}: ResignDeps): Promise<ResignResult> {
  const topic = new Map<string, TopicToken>();
  const take = topicTokens(signer, topic);
  /** The revocations of a token this run takes: signed ones, and unsigned ones only when trusted. */
  const topicRevocation = (record: DurableTokenRecord, token: TopicToken | undefined) => {
    const signed = firstRevocation(record, token?.revocations);
    const unsigned = trustUnsignedRevocations ? firstRevocation(record, token?.unsignedRevocations) : null;
    if (signed === null || unsigned === null) return signed ?? unsigned;
    return Date.parse(unsigned) < Date.parse(signed) ? unsigned : signed;
  };
  let ends: Map<number, bigint> | null;
  try {
    ends = await readTopic(undefined, take);
  } catch (cause) {
    throw new TokenCommandError(
      `the tokens topic could not be read (${(cause as Error).message}); nothing was signed, run resign again`,
      { cause },
    );
  }
  if (ends === null) {
    throw new TokenCommandError(
      "the tokens topic does not exist (the stack's ensureTopics makes it, compacted); nothing was signed",
    );
  }
  const result: ResignResult = {
    signed: 0,
    revoked: 0,
    skipped: 0,
    revokedFromTopic: [],
    unsignedRevocations: [],
    revokedMeanwhile: 0,
    incomplete: 0,
    invalid: [],
    unverifiedNotInRedis: 0,
  };
  const progress = () =>
    `${result.signed} token records were signed before it; run resign again (it skips what is signed already)`;
  const send = async (hash: string, record: DurableTokenRecord) => {
    try {
      await records.send(hash, record);
    } catch (cause) {
      throw new TokenCommandError(
        `the tokens topic did not take the record of token ${record.id} of ${record.org} ` +
          `(${(cause as Error).message}); ${progress()}`,
        { cause },
      );
    }
  };
  /** Redis's side of a revocation: after the topic's, as `revoke` does. */
  const revokeInRedis = async (hash: string, record: DurableTokenRecord) => {
    try {
      await tokens.restore(hash, record);
    } catch (cause) {
      throw new TokenCommandError(
        `token ${record.id} of ${record.org} is revoked in the tokens topic but Redis did not take the ` +
          `revocation (${(cause as Error).message}); ${progress()}`,
        { cause },
      );
    }
  };

  const inRedis = new Set<string>();
  /** Tokens signed active: a revocation the topic gets while this runs is signed after them. */
  const signedActive = new Map<string, DurableTokenRecord>();
  try {
    for await (const { hash, record } of tokens.scanRecords()) {
      // SCAN may return a key twice.
      if (inRedis.has(hash)) continue;
      inRedis.add(hash);
      if (record === null) {
        result.incomplete += 1;
        continue;
      }
      const token = topic.get(hash);
      const own = durable(record);
      const next: DurableTokenRecord = { ...own, revokedAt: own.revokedAt ?? topicRevocation(own, token) };
      const untrusted = firstRevocation(own, token?.unsignedRevocations);
      if (next.revokedAt === null && untrusted !== null) {
        result.unsignedRevocations.push({ id: own.id, org: own.org, revokedAt: untrusted });
      }
      const problem = recordProblem(next);
      if (problem !== null) {
        result.invalid.push({ id: next.id, org: next.org, problem });
        continue;
      }
      if (signedAlready(token, next, signer.keyId)) result.skipped += 1;
      else {
        await send(hash, next);
        result.signed += 1;
        if (next.revokedAt === null) signedActive.set(hash, next);
        else result.revoked += 1;
      }
      if (next.revokedAt !== null && own.revokedAt === null) {
        await revokeInRedis(hash, next);
        result.revokedFromTopic.push({ id: next.id, org: next.org, revokedAt: next.revokedAt });
      }
    }
  } catch (cause) {
    if (cause instanceof TokenCommandError) throw cause;
    throw new TokenCommandError(`Redis could not be scanned (${(cause as Error).message}); ${progress()}`, {
      cause,
    });
  }

  // What the topic got while Redis was read and the records written: a `revoke` of a token signed
  // active above may have landed before that record, which would then be its latest.
  try {
    await readTopic(ends, take);
  } catch (cause) {
    throw new TokenCommandError(
      `the tokens topic could not be read again for revocations made meanwhile (${(cause as Error).message}); ` +
        progress(),
      { cause },
    );
  }
  for (const [hash, record] of signedActive) {
    const revokedAt = topicRevocation(record, topic.get(hash));
    if (revokedAt === null) continue;
    const revoked = { ...record, revokedAt };
    await send(hash, revoked);
    await revokeInRedis(hash, revoked);
    result.revokedMeanwhile += 1;
  }
  for (const [hash, token] of topic) {
    if (!inRedis.has(hash) && ![...token.last.values()].some((last) => last !== null)) {
      result.unverifiedNotInRedis += 1;
    }
  }
  return result;
}
