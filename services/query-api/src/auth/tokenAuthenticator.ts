import { hashToken, type TokenRecord, type TokenStore } from "@vu/store";

export interface TokenAuthenticatorOptions {
  tokens: TokenStore;
  /** How long a lookup (hit or miss) is reused; keep it under CONTRACT §4's 5 s revocation bound. */
  cacheMs: number;
  /** `last_used` is written at most this often per token, off the request path. */
  touchEveryMs?: number;
  now?: () => number;
  onTouchError?: (error: unknown) => void;
}

export interface TokenAuthenticator {
  /** The token's record when it is known and not revoked, else null. */
  verify(token: string): Promise<TokenRecord | null>;
}

const MAX_CACHED = 10_000;

/**
 * Token lookups with a short cache: every replica refuses a revoked token within `cacheMs`, and a
 * busy client costs Redis one lookup per `cacheMs` instead of one per request.
 */
export function createTokenAuthenticator(options: TokenAuthenticatorOptions): TokenAuthenticator {
  const { tokens, cacheMs, touchEveryMs = 60_000, onTouchError } = options;
  const now = options.now ?? Date.now;
  const cache = new Map<string, { record: TokenRecord | null; until: number }>();
  const touched = new Map<string, number>();

  function touch(token: string, id: string): void {
    const at = now();
    if ((touched.get(id) ?? 0) + touchEveryMs > at) return;
    touched.set(id, at);
    tokens.touch(token, new Date(at)).catch((error: unknown) => onTouchError?.(error));
  }

  return {
    async verify(token) {
      const key = hashToken(token);
      const cached = cache.get(key);
      let record: TokenRecord | null;
      if (cached && cached.until > now()) {
        record = cached.record;
      } else {
        record = await tokens.find(token);
        if (cache.size >= MAX_CACHED) cache.clear();
        cache.set(key, { record, until: now() + cacheMs });
      }
      if (record === null || record.revokedAt !== null) return null;
      touch(token, record.id);
      return record;
    },
  };
}
