import { looksLikeToken } from "@vu/store";
import type { Request, RequestHandler } from "express";
import type { TokenAuthenticator } from "../auth/tokenAuthenticator";
import { ProblemError } from "./problemError";
import { clientAddress, UNAUTHENTICATED_WINDOW_MS, type UnauthenticatedLimit } from "./unauthenticatedLimit";

const REALM = 'Bearer realm="usage-stats"';

/** What an authenticated request carries in `res.locals`. */
export interface AuthLocals {
  org: string;
  tokenId: string;
}

function unauthorized(detail: string, tokenSent: boolean): ProblemError {
  const challenge = tokenSent ? `${REALM}, error="invalid_token"` : REALM;
  return new ProblemError(401, detail, { headers: { "WWW-Authenticate": challenge } });
}

function tooManyRefusals(limit: UnauthenticatedLimit, retryAfter: number): ProblemError {
  const policy = '"unauthenticated"';
  return new ProblemError(
    429,
    `Too many requests without a valid token from this address (at most ${limit.perMinute} a minute).`,
    {
      headers: {
        "Retry-After": String(retryAfter),
        "RateLimit-Policy": `${policy};q=${limit.perMinute};w=${UNAUTHENTICATED_WINDOW_MS / 1000}`,
        RateLimit: `${policy};r=0;t=${retryAfter}`,
      },
    },
  );
}

/** The bearer token of the request, or the 401 that says what is wrong with the header. */
function bearerToken(req: Request): string | ProblemError {
  const header = req.headers.authorization;
  if (header === undefined || header.trim() === "") return unauthorized("A bearer token is required.", false);
  const match = /^Bearer +(\S+) *$/i.exec(header);
  if (!match?.[1]) return unauthorized("The Authorization header must use the Bearer scheme.", false);
  if (!looksLikeToken(match[1])) return unauthorized("The bearer token is not a valid access token.", true);
  return match[1];
}

/**
 * Bearer authentication (docs/contract.md §3, §4). Messages say what is wrong without echoing the token.
 *
 * Every 401 counts against the client's address; an address over its limit gets 429 for requests
 * without a well-formed token before any store work, and for a well-formed token only once its
 * lookup found it unknown (the authenticator caches unknown tokens too, so a repeated made-up
 * token costs no store work). A valid token is never refused for its neighbours' mistakes: many
 * clients behind one NAT keep working while a misconfigured script next to them is held.
 */
export function authenticate(
  authenticator: TokenAuthenticator,
  limit: UnauthenticatedLimit,
  /**
   * Throws when the store cannot answer (Redis lost its state: its tokens too, until the worker
   * restores them), so an unknown token is then a 503, not a 401 that would tell a client with a
   * valid token that it was revoked.
   */
  storeLive: () => Promise<unknown> = async () => undefined,
): RequestHandler {
  return async (req, res, next) => {
    const token = bearerToken(req);
    if (typeof token !== "string") {
      const address = clientAddress(req);
      const blockedFor = limit.blockedFor(address);
      if (blockedFor !== undefined) throw tooManyRefusals(limit, blockedFor);
      limit.recordRefusal(address);
      throw token;
    }
    const record = await authenticator.verify(token);
    if (record === null) {
      // The address only for a refusal: finding it (the trusted proxies, an IPv6 prefix) is most
      // of what authenticating a valid token would otherwise cost.
      const address = clientAddress(req);
      const blockedFor = limit.blockedFor(address);
      if (blockedFor !== undefined) throw tooManyRefusals(limit, blockedFor);
      await storeLive().catch((error: unknown) => {
        authenticator.forgetRefusal(token);
        throw error;
      });
      limit.recordRefusal(address);
      throw unauthorized("The bearer token is unknown or revoked.", true);
    }
    const locals: AuthLocals = { org: record.org, tokenId: record.id };
    Object.assign(res.locals, locals);
    next();
  };
}

export function authOf(locals: Record<string, unknown>): AuthLocals {
  const { org, tokenId } = locals;
  if (typeof org !== "string" || typeof tokenId !== "string") {
    throw new Error("route reached without authentication");
  }
  return { org, tokenId };
}
