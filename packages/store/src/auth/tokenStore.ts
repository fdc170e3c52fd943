import { createHash, randomBytes, randomUUID } from "node:crypto";
import { type DurableTokenRecord, TOKEN_HASH_PATTERN } from "@vu/events";
import type { Keyspace } from "../format/keyspace";
import { scanKeyPages } from "../redis/keyScan";
import type { RedisClient } from "../redis/redisClient";
import { defineScripts } from "../redis/scriptLoader";
import { StoreError } from "../storeError";
import { AUTH_SCRIPTS } from "./authScripts";

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
 * A token record that would move an existing token: its hash is stored already, for another
 * organization or under another id. Nothing was written. The tokens CLI never makes such a record
 * (a new token's secret is random), so it is a forgery or a corrupt topic, never retried.
 */
export class TokenConflictError extends StoreError {
  constructor(readonly held: "org" | "id") {
    super(
      `the token's hash is stored already ${held === "org" ? "for another organization" : "under another id"}`,
      {
        retriable: false,
      },
    );
    this.name = "TokenConflictError";
  }
}

/**
 * The token store with what keeps Redis in step with the durable tokens topic (`TOKENS_TOPIC` of
 * @vu/events): the tokens CLI, the restore after a Redis loss and the worker's revocation watch use
 * it. A separate interface, so `TokenStore` stays what the API needs (and what its test doubles
 * implement).
 */
export interface TokenAdminStore extends TokenStore {
  /**
   * Writes a token's durable fields under its hash and its organization's index entry, as a
   * restore from the tokens topic does (and as the CLI does once the topic has the record), in one
   * script (lua/restoreToken-1.lua). Idempotent; never moves a token: a hash stored for another
   * organization or under another id throws `TokenConflictError` and nothing is written. It only
   * ever adds a revocation: a token revoked in Redis stays revoked (with its first revocation time)
   * whatever the record says; a revoked record revokes an active token. An existing `last_used_at`
   * is kept (it is not durable, so the record never carries one).
   */
  restore(hash: string, record: DurableTokenRecord): Promise<void>;
  /** The organization's token `id` with its hash, as Redis has it; null when Redis has none. */
  recordById(org: string, id: string): Promise<{ hash: string; record: TokenRecord } | null>;
  /**
   * Marks the token `hash` revoked at `revokedAt` unless Redis says it is revoked already (HSETNX):
   * what the worker does for every revocation in the tokens topic, so that Redis going back to an
   * older state never brings a revoked token back. True when it wrote (Redis had lost it).
   */
  reassertRevocation(hash: string, revokedAt: string): Promise<boolean>;
  /**
   * Every token Redis holds, of every organization: its hash and its record, null for a token key
   * without a whole record (only `revoked_at`, as the revocation watch writes it for a token Redis
   * lost; or a key deleted since the SCAN returned it). For tools that go over all tokens (the
   * tokens CLI's `resign`), never a request path: SCAN over the token keys (`tokenPattern`), on
   * every master of a cluster, a page at a time, never KEYS. SCAN may return a key twice (a caller
   * that counts dedupes by hash), and a token created during the scan may or may not be in it.
   */
  scanRecords(): AsyncIterable<{ hash: string; record: TokenRecord | null }>;
}

/** Keys a SCAN page asks for; token keys read (HGETALL, one command each) at once. */
const SCAN_COUNT = 1_000;
const READS_AT_ONCE = 200;

export function createTokenStore({
  redis,
  keyspace,
}: {
  redis: RedisClient;
  keyspace: Keyspace;
}): TokenAdminStore {
  defineScripts(redis, AUTH_SCRIPTS);

  async function recordById(org: string, id: string) {
    const hash = await redis.hget(keyspace.orgTokens(org), id);
    if (hash === null) return null;
    // An index entry whose record is gone (a partial loss) names no token.
    const record = toRecord(await redis.hgetall(keyspace.token(hash)));
    return record === null || record.org !== org || record.id !== id ? null : { hash, record };
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
      const found = await recordById(org, id);
      if (found === null) return false;
      // HSETNX: revoking again keeps the first time.
      await redis.hsetnx(keyspace.token(found.hash), "revoked_at", new Date().toISOString());
      return true;
    },

    recordById,

    async restore(hash, record) {
      const { id, org, label, createdAt, revokedAt } = record;
      // One script on one key: the check that the hash is not another token's and the writes are
      // atomic, and a revoked token restored into an empty Redis is never, even for a moment, an
      // active one.
      const written = await redis.vuRestoreToken(
        keyspace.token(hash),
        id,
        org,
        label,
        createdAt,
        revokedAt ?? "",
      );
      if (written === -1) throw new TokenConflictError("org");
      if (written === -2) throw new TokenConflictError("id");
      // Another slot (no multi-key script on a Cluster): after the token record, so an index entry
      // never points at nothing.
      await redis.hset(keyspace.orgTokens(org), id, hash);
    },

    async reassertRevocation(hash, revokedAt) {
      return (await redis.hsetnx(keyspace.token(hash), "revoked_at", revokedAt)) === 1;
    },

    async *scanRecords() {
      const root = keyspace.token("");
      for await (const { keys } of scanKeyPages(redis, keyspace.tokenPattern(), SCAN_COUNT)) {
        for (let at = 0; at < keys.length; at += READS_AT_ONCE) {
          const chunk = keys.slice(at, at + READS_AT_ONCE);
          // Through the client, not the node SCAN ran on: a cluster routes each key to its slot's
          // node even while slots move.
          const fields = await Promise.all(chunk.map((key) => redis.hgetall(key)));
          for (const [i, key] of chunk.entries()) {
            const hash = key.slice(root.length);
            // The pattern's `*` matches more than a SHA-256: such a key is no token's.
            if (!key.startsWith(root) || !TOKEN_HASH_PATTERN.test(hash)) continue;
            yield { hash, record: toRecord(fields[i] ?? {}) };
          }
        }
      }
    },

    async touch(token, at) {
      await redis.hset(keyspace.token(hashToken(token)), "last_used_at", at.toISOString());
    },
  };
}
