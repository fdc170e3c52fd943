import { looksLikeToken } from "@vu/store";
import type { RequestHandler } from "express";
import type { TokenAuthenticator } from "../auth/tokenAuthenticator";
import { ProblemError } from "./problemError";

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

/**
 * Bearer authentication (CONTRACT §3, §4). Messages say what is wrong without echoing the token.
 */
export function authenticate(authenticator: TokenAuthenticator): RequestHandler {
  return async (req, res, next) => {
    const header = req.headers.authorization;
    if (header === undefined || header.trim() === "")
      throw unauthorized("A bearer token is required.", false);
    const match = /^Bearer +(\S+) *$/i.exec(header);
    if (!match?.[1]) throw unauthorized("The Authorization header must use the Bearer scheme.", false);
    const token = match[1];
    if (!looksLikeToken(token)) throw unauthorized("The bearer token is not a valid access token.", true);
    const record = await authenticator.verify(token);
    if (record === null) throw unauthorized("The bearer token is unknown or revoked.", true);
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
