/** How the client waits before trying again, and what it tells the page meanwhile. */
export interface RetryNotice {
  status: 429 | 503;
  /** Seconds until the next try. */
  waitSeconds: number;
  attempt: number;
}

export const MAX_ATTEMPTS = 5;

/** 503: exponential backoff, 1 s doubling up to 16 s, unless the server names a longer wait. */
const backoffSeconds = (attempt: number): number => Math.min(16, 2 ** (attempt - 1));

/**
 * The wait before retrying a 429 or 503, in seconds; null when the answer should not be retried.
 * A 429 waits exactly what `Retry-After` says (the rate limit's window), a 503 backs off.
 */
export function retryDelaySeconds(status: number, retryAfter: string | null, attempt: number): number | null {
  if ((status !== 429 && status !== 503) || attempt >= MAX_ATTEMPTS) return null;
  const given = retryAfter !== null && /^\d+$/.test(retryAfter) ? Number(retryAfter) : null;
  if (status === 429) return Math.max(1, given ?? backoffSeconds(attempt));
  return Math.max(backoffSeconds(attempt), given ?? 0);
}
