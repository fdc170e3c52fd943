import type { Request } from "express";
import { ipKeyGenerator } from "express-rate-limit";
import { createBoundedCache } from "../cache/boundedCache";

export interface UnauthenticatedLimitOptions {
  /** Refused requests (no token, a malformed, unknown or revoked one) one address may make a minute. */
  perMinute: number;
  /** Addresses tracked at once; the least recently refused is forgotten first. */
  maxAddresses?: number;
  now?: () => number;
}

export interface UnauthenticatedLimit {
  readonly perMinute: number;
  /** Seconds until the address may try again, or undefined when it is under its limit. */
  blockedFor(address: string): number | undefined;
  /** Counts one request refused with 401 against the address. */
  recordRefusal(address: string): void;
}

export const UNAUTHENTICATED_WINDOW_MS = 60_000;
const MAX_ADDRESSES = 100_000;

/**
 * The client address a request counts against: `req.ip`, which honours the `trust proxy` setting
 * (TRUST_PROXY), with IPv6 addresses grouped by /56 since one client commonly holds a whole prefix.
 */
export function clientAddress(req: Request): string {
  return req.ip === undefined ? "unknown" : ipKeyGenerator(req.ip);
}

/**
 * Per-address limit on requests without a valid token (docs/contract.md §3), kept in memory: it must cost
 * less than the lookups it saves, so it never touches Redis, and works while Redis is away. Only
 * refusals count, so many valid clients behind one address (a NAT, a BI server) are never held back
 * by their own traffic. Per replica: N replicas allow N times the limit, which still caps the load.
 */
export function createUnauthenticatedLimit(options: UnauthenticatedLimitOptions): UnauthenticatedLimit {
  const { perMinute } = options;
  const now = options.now ?? Date.now;
  // One fixed window per address, starting at its first refusal; the entry lives as long as it.
  const windows = createBoundedCache<{ count: number; endsAt: number }>({
    maxEntries: options.maxAddresses ?? MAX_ADDRESSES,
    ttlMs: UNAUTHENTICATED_WINDOW_MS,
    now,
  });
  return {
    perMinute,
    blockedFor(address) {
      const window = windows.get(address);
      if (window === undefined || window.count < perMinute) return undefined;
      return Math.max(1, Math.ceil((window.endsAt - now()) / 1000));
    },
    recordRefusal(address) {
      const window = windows.get(address);
      if (window === undefined) windows.set(address, { count: 1, endsAt: now() + UNAUTHENTICATED_WINDOW_MS });
      else window.count += 1;
    },
  };
}
