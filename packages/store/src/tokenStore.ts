import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { DurableTokenRecord } from "@vu/events";
import type { Keyspace } from "./keyspace";
import type { RedisClient } from "./redisClient";
import { StoreError } from "./storeError";

/** Every token starts with this (docs/contract.md §4); the rest is random base62. */
export const TOKEN_PREFIX = "sk-vu-";
const SECRET_LENGTH = 40;
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

export interface TokenRecord {
  id: string;
  org: string;
  label: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** Uniform base62: bytes ≥ 248 are rejected so no character is more likely than another. */
export function generateToken(): string {
  let secret = "";
  while (secret.length < SECRET_LENGTH) {
    for (const byte of randomBytes(64)) {
      if (byte < 248 && secret.length < SECRET_LENGTH) secret += BASE62[byte % 62];
    }
  }
  return TOKEN_PREFIX + secret;
}

/** A new token, its hash and its record, written nowhere yet (the secret is never stored). */
export function mintToken(
  org: string,
  label: string,
  at: Date = new Date(),
): { token: string; hash: string; record: TokenRecord } {
  const token = generateToken();
  const record: TokenRecord = {
    id: randomUUID(),
    org,
    label,
    createdAt: at.toISOString(),
    lastUsedAt: null,
    revokedAt: null,
  };
  return { token, hash: hashToken(token), record };
}

/** Shape check before any lookup, so malformed tokens never reach Redis. */
export function looksLikeToken(token: string): boolean {
  return token.startsWith(TOKEN_PREFIX) && /^[0-9A-Za-z]{32,}$/.test(token.slice(TOKEN_PREFIX.length));
}

function toRecord(fields: Record<string, string>): TokenRecord | null {
  const { id, org, label, created_at } = fields;
  if (!id || !org || created_at === undefined) return null;
  return {
    id,
    org,
    label: label ?? "",
    createdAt: created_at,
    lastUsedAt: fields.last_used_at || null,
    revokedAt: fields.revoked_at || null,
  };
}

export interface TokenStore {
  /** Creates a token; the secret is returned here only and stored as its SHA-256 hash. */
  create(org: string, label: string): Promise<{ token: string; record: TokenRecord }>;
  find(token: string): Promise<TokenRecord | null>;
  list(org: string): Promise<TokenRecord[]>;
  /**
   * Marks a token revoked (kept for listing); false when the org has no such token. Revoking again
   * keeps the first revocation time.
   */
  revoke(org: string, id: string): Promise<boolean>;
  touch(token: string, at: Date): Promise<void>;
}

/**
 * The token store with what keeps Redis in step with the durable tokens topic (`TOKENS_TOPIC` of
 * @vu/events): the tokens CLI and the restore after a Redis loss use it. A separate interface, so
 * `TokenStore` stays what the API needs (and what its test doubles implement).
 */
export interface TokenAdminStore extends TokenStore {
  /**
   * Writes a token's durable fields under its hash and its organization's index entry, as a
   * restore from the tokens topic does (and as the CLI does once the topic has the record).
   * Idempotent, and it only ever adds a revocation: a token revoked in Redis stays revoked (with
   * its first revocation time) whatever the record says; a revoked record revokes an active token.
   * An existing `last_used_at` is kept (it is not durable, so the record never carries one).
   */
  restore(hash: string, record: DurableTokenRecord): Promise<void>;
  /**
   * `revoke`, returning the token's hash and its record as stored afterwards (null when the org
   * has no such token): what the CLI sends to the tokens topic.
   */
  revokeRecord(org: string, id: string): Promise<{ hash: string; record: TokenRecord } | null>;
}

export function createTokenStore({
  redis,
  keyspace,
}: {
  redis: RedisClient;
  keyspace: Keyspace;
}): TokenAdminStore {
  async function revokeRecord(org: string, id: string) {
    const hash = await redis.hget(keyspace.orgTokens(org), id);
    if (hash === null) return null;
    const key = keyspace.token(hash);
    // An index entry whose record is gone (a partial loss) names no token: nothing to revoke.
    const before = toRecord(await redis.hgetall(key));
    if (before === null || before.org !== org) return null;
    // HSETNX: a second revoke (a retried CLI run) keeps the first time, so the record sent to the
    // tokens topic is the same every time.
    await redis.hsetnx(key, "revoked_at", new Date().toISOString());
    const record = toRecord(await redis.hgetall(key));
    return record === null ? null : { hash, record };
  }

  return {
    async create(org, label) {
      const { token, hash, record } = mintToken(org, label);
      // Two keys in two slots: the token record first, so an index entry never points at nothing.
      await redis.hset(keyspace.token(hash), { id: record.id, org, label, created_at: record.createdAt });
      await redis.hset(keyspace.orgTokens(org), record.id, hash);
      return { token, record };
    },

    async find(token) {
      try {
        return toRecord(await redis.hgetall(keyspace.token(hashToken(token))));
      } catch (cause) {
        throw new StoreError("looking up a token failed", { retriable: true, cause });
      }
    },

    async list(org) {
      const index = await redis.hgetall(keyspace.orgTokens(org));
      const records = await Promise.all(
        Object.values(index).map((hash) => redis.hgetall(keyspace.token(hash))),
      );
      return records
        .map(toRecord)
        .filter((r): r is TokenRecord => r !== null)
        .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    },

    async revoke(org, id) {
      return (await revokeRecord(org, id)) !== null;
    },

    revokeRecord,

    async restore(hash, record) {
      const key = keyspace.token(hash);
      // Never un-revoke: an existing revocation stays (HSETNX); a record's revocation is added when
      // missing. Written before the other fields, so a revoked token restored into an empty Redis
      // is never, even between two commands, an active one (a hash without `id` is no token).
      if (record.revokedAt !== null) await redis.hsetnx(key, "revoked_at", record.revokedAt);
      // Two keys in two slots (no multi-key script on a Cluster): the token record first, as in
      // `create`, so an index entry never points at nothing. Every write here is idempotent, and
      // `last_used_at` is left as it is.
      await redis.hset(key, {
        id: record.id,
        org: record.org,
        label: record.label,
        created_at: record.createdAt,
      });
      await redis.hset(keyspace.orgTokens(record.org), record.id, hash);
    },

    async touch(token, at) {
      await redis.hset(keyspace.token(hashToken(token)), "last_used_at", at.toISOString());
    },
  };
}
