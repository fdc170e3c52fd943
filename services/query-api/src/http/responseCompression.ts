import compression from "compression";
import type { Request, RequestHandler, Response } from "express";
import { BROTLI_OPTIONS, CONTENT_CODINGS, type ContentCoding, encodeBody } from "./encodedBodies";
import { codedTag } from "./entityTag";

/** Smaller bodies go as they are (the `compression` package's default): the coding would not pay. */
const THRESHOLD_BYTES = 1024;
/** The answers of the API: JSON, problem documents, JSON Schema and CSV. */
const ANSWER_TYPE = /^(?:application\/(?:problem\+|schema\+)?json|text\/csv)(?:;|$)/i;
const NO_TRANSFORM = /(?:^|,)\s*no-transform\s*(?:,|$)/i;

/** The coding the client takes best among ours (its q-values, then its order), or none. */
function acceptedCoding(req: Request): ContentCoding | undefined {
  const best = req.acceptsEncodings([...CONTENT_CODINGS, "identity"]);
  return CONTENT_CODINGS.find((coding) => coding === best);
}

/** Whether the response is an answer the client may get compressed (by its type and Cache-Control). */
function mayCompress(res: Response): boolean {
  if (res.headersSent || res.getHeader("Content-Encoding") !== undefined) return false;
  if (!ANSWER_TYPE.test(String(res.getHeader("Content-Type") ?? ""))) return false;
  return !NO_TRANSFORM.test(String(res.getHeader("Cache-Control") ?? ""));
}

/** The whole body `res.end` was given, when it is an answer worth compressing. */
function compressibleBody(res: Response, chunk: unknown, encoding: unknown): Buffer | undefined {
  if (!mayCompress(res)) return undefined;
  const body =
    typeof chunk === "string"
      ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8")
      : chunk;
  return Buffer.isBuffer(body) && body.length >= THRESHOLD_BYTES ? body : undefined;
}

/**
 * An answer is sent whole (`res.send`), so it is compressed whole, in one call: `compression`
 * would stream it through zlib in 16 KiB chunks, each a trip through the thread pool and the event
 * loop, which delays the answer behind whatever else the loop is doing. A kept page's encoding is
 * reused (encodedBodies.ts); its entity tag, when it has one, names the coding. An answer worth
 * compressing says `Vary: Accept-Encoding` whether it was compressed or not.
 */
export const compressWholeAnswers: RequestHandler = (req, res, next) => {
  const end = res.end as (this: Response, ...args: unknown[]) => Response;
  res.end = function endCompressed(this: Response, ...args: unknown[]): Response {
    // A HEAD's answer has no body here (only its length): it varies as its GET does.
    if (
      req.method === "HEAD" &&
      Number(res.getHeader("Content-Length")) >= THRESHOLD_BYTES &&
      mayCompress(res)
    )
      res.vary("Accept-Encoding");
    const body = compressibleBody(res, args[0], args[1]);
    if (body === undefined) return end.apply(this, args);
    res.vary("Accept-Encoding");
    const coding = acceptedCoding(req);
    if (coding === undefined) return end.apply(this, args);
    encodeBody(body, coding).then(
      (bytes) => {
        res.setHeader("Content-Encoding", coding);
        // Another representation, so another strong tag (docs/contract.md §9).
        const tag = res.getHeader("ETag");
        if (typeof tag === "string") res.setHeader("ETag", codedTag(tag, coding));
        res.setHeader("Content-Length", bytes.length);
        end.call(res, bytes);
      },
      () => end.apply(res, args),
    );
    return this;
  } as Response["end"];
  next();
};

/**
 * The dashboard's files, streamed from disk, by the `compression` middleware. Only there: it wraps
 * every response it sees (its `write`, `end` and headers), which an API answer, compressed whole
 * above, does not need.
 */
export function compressFiles(): RequestHandler {
  return compression({ brotli: BROTLI_OPTIONS, threshold: THRESHOLD_BYTES });
}
