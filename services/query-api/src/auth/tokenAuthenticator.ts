import { hashToken, type TokenRecord, type TokenStore } from "@vu/store";
import { createBoundedCache } from "../cache/boundedCache";

export interface TokenAuthenticatorOptions {
  tokens: TokenStore;
  /**
   * How long a lookup (hit or miss) is reused; keep it under docs/contract.md §4's 5 s revocation bound. A
   * miss is reused as long, so a token created meanwhile is accepted within it.
   */
  cacheMs: number;
  /** At most this many valid tokens and, separately, this many unknown ones are cached. */
  maxCached?: number;
  /** `last_used` is written at most this often per token, off the request path. */
  touchEveryMs?: number;
  now?: () => number;
  onTouchError?: (error: unknown) => void;
}

export interface TokenAuthenticator {
  /** The token's record when it is known and not revoked, else null. */
  verify(token: string): Promise<TokenRecord | null>;
  /**
   * Forgets that the token was refused: it was looked up in a store that could not answer (Redis
   * lost its state, and the tokens are being restored), so the refusal says nothing.
   */
  forgetRefusal(token: string): void;
}

const MAX_CACHED = 10_000;

/**
 * Token lookups with a short cache: every replica refuses a revoked token within `cacheMs`, and a
 * busy client costs Redis one lookup per `cacheMs` instead of one per request.
 *
 * Valid and refused tokens are cached apart, each bounded and least-recently-used first out: a flood
 * of made-up tokens fills only the negative cache (and each is looked up once per `cacheMs`), while
 * the valid tokens in use stay cached. Nothing is ever flushed wholesale.
 */
export function createTokenAuthenticator(options: TokenAuthenticatorOptions): TokenAuthenticator {
  const { tokens, cacheMs, touchEveryMs = 60_000, onTouchError } = options;
  const maxEntries = options.maxCached ?? MAX_CACHED;
  const now = options.now ?? Date.now;
  const valid = createBoundedCache<TokenRecord>({ maxEntries, ttlMs: cacheMs, now });
  const refused = createBoundedCache<true>({ maxEntries, ttlMs: cacheMs, now });
  const touched = createBoundedCache<true>({ maxEntries, ttlMs: touchEveryMs, now });

  function touch(token: string, id: string): void {
    if (touched.get(id)) return;
    touched.set(id, true);
    tokens.touch(token, new Date(now())).catch((error: unknown) => onTouchError?.(error));
  }

  return {
    async verify(token) {
      const key = hashToken(token);
      let record = valid.get(key);
      if (record === undefined) {
        if (refused.get(key)) return null;
        const found = await tokens.find(token);
        if (found === null || found.revokedAt !== null) {
          refused.set(key, true);
          return null;
        }
        record = found;
        valid.set(key, record);
      }
      touch(token, record.id);
      return record;
    },
    forgetRefusal(token) {
      refused.delete(hashToken(token));
    },
  };
}
