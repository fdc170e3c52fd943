import { createHash, randomBytes, randomUUID } from "node:crypto";
import type { Keyspace } from "./keyspace";
import type { RedisClient } from "./redisClient";
import { StoreError } from "./storeError";

/** Every token starts with this (CONTRACT §4); the rest is random base62. */
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
  /** Marks a token revoked (kept for listing); false when the org has no such token. */
  revoke(org: string, id: string): Promise<boolean>;
  touch(token: string, at: Date): Promise<void>;
}

export function createTokenStore({
  redis,
  keyspace,
}: {
  redis: RedisClient;
  keyspace: Keyspace;
}): TokenStore {
  return {
    async create(org, label) {
      const token = generateToken();
      const hash = hashToken(token);
      const record: TokenRecord = {
        id: randomUUID(),
        org,
        label,
        createdAt: new Date().toISOString(),
        lastUsedAt: null,
        revokedAt: null,
      };
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
      const hash = await redis.hget(keyspace.orgTokens(org), id);
      if (hash === null) return false;
      await redis.hset(keyspace.token(hash), "revoked_at", new Date().toISOString());
      return true;
    },

    async touch(token, at) {
      await redis.hset(keyspace.token(hashToken(token)), "last_used_at", at.toISOString());
    },
  };
}
