import type { Request, Response } from "express";
import { CONTENT_CODINGS } from "./encodedBodies";
import { heldTag } from "./entityTag";

/** Sends `304 Not Modified`: no body, the tag of the answer the client holds (RFC 9110 §15.4.5). */
function sendNotModified(res: Response, held: string): void {
  res.set("ETag", held);
  // The tag names a content coding: the answer it stands for varies by Accept-Encoding.
  if (CONTENT_CODINGS.some((coding) => held.endsWith(`-${coding}"`))) res.vary("Accept-Encoding");
  res.status(304).end();
}

/**
 * docs/contract.md §9, before the answer is computed: when `If-None-Match` lists the tag the
 * answer has in the store's state now (`tagNow`: the view and one `HGET` of the write stamp, what
 * the result cache checks a kept answer by), answers 304 with the headers `setHeaders` sets and
 * returns true. Without the header it does nothing at all. `*` is left for `sendTagged`, once an
 * answer is known to exist.
 */
export async function answeredNotModified(
  req: Request,
  res: Response,
  check: { tagNow: () => Promise<string>; setHeaders: () => void },
): Promise<boolean> {
  const ifNoneMatch = req.get("if-none-match");
  if (ifNoneMatch === undefined) return false;
  const held = heldTag(ifNoneMatch, await check.tagNow());
  if (held === undefined) return false;
  check.setHeaders();
  sendNotModified(res, held);
  return true;
}

/**
 * Sends a computed answer with its strong `ETag`, or 304 when `If-None-Match` holds it (the state
 * may have come to match while it was computed) or is `*`.
 */
export function sendTagged(req: Request, res: Response, tag: string, send: () => void): void {
  const held = heldTag(req.get("if-none-match"), tag, true);
  if (held !== undefined) {
    sendNotModified(res, held);
    return;
  }
  res.set("ETag", tag);
  send();
}
