import type { Readiness } from "./opsServer";

/** How long one readiness verdict is reused: /readyz costs at most one check a second per process. */
export const READINESS_MAX_AGE_MS = 1_000;

/**
 * `check`, shared: callers during a check wait for it, and its verdict is reused for `maxAgeMs`
 * after it finished. A readiness check asks every Redis node and runs a script; unshared, anyone
 * who can reach /readyz could make the process do that as fast as they can send requests.
 */
export function cachedReadiness(
  check: () => Promise<Readiness>,
  { maxAgeMs = READINESS_MAX_AGE_MS, now = Date.now }: { maxAgeMs?: number; now?: () => number } = {},
): () => Promise<Readiness> {
  let pending: Promise<Readiness> | undefined;
  let last: { verdict: Readiness; at: number } | undefined;
  return () => {
    if (last !== undefined && now() - last.at < maxAgeMs) return Promise.resolve(last.verdict);
    pending ??= check()
      .then((verdict) => {
        last = { verdict, at: now() };
        return verdict;
      })
      .finally(() => {
        pending = undefined;
      });
    return pending;
  };
}
