import { promisify } from "node:util";
import { brotliCompress, constants, deflate, gzip, type ZlibOptions } from "node:zlib";

/** The content codings answers are compressed with, in the server's order of preference. */
export const CONTENT_CODINGS = ["br", "gzip", "deflate"] as const;
export type ContentCoding = (typeof CONTENT_CODINGS)[number];

/**
 * Brotli at quality 4 (of 11), the `compression` package's own default made explicit: near gzip's
 * speed with smaller bodies; 11 costs many times the CPU for a few per cent.
 */
export const BROTLI_OPTIONS = { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } };
const GZIP_OPTIONS: ZlibOptions = {};

const ENCODERS: Record<ContentCoding, (body: Buffer) => Promise<Buffer>> = {
  br: (body) => promisify(brotliCompress)(body, BROTLI_OPTIONS),
  gzip: (body) => promisify(gzip)(body, GZIP_OPTIONS),
  deflate: (body) => promisify(deflate)(body, GZIP_OPTIONS),
};

/**
 * Bodies that are sent again and again (pages rendered from kept answers, http/renderedPages.ts),
 * each with its encodings as they are first asked for: a kept page is compressed once per coding,
 * not once per response. Held weakly by the body, so they go when the page goes.
 */
const kept = new WeakMap<Buffer, Map<ContentCoding, Promise<Buffer>>>();

/** Marks `body` as one whose encodings are worth keeping. */
export function keepEncodings(body: Buffer): void {
  if (!kept.has(body)) kept.set(body, new Map());
}

/**
 * `body` in `coding`, compressed in one call (off the event loop, in zlib's thread pool); a kept
 * body's encoding is compressed once and then reused.
 */
export function encodeBody(body: Buffer, coding: ContentCoding): Promise<Buffer> {
  const encodings = kept.get(body);
  if (encodings === undefined) return ENCODERS[coding](body);
  let encoded = encodings.get(coding);
  if (encoded === undefined) {
    encoded = ENCODERS[coding](body);
    // A failure is not kept: the next response tries again (or is sent as it is).
    encoded.catch(() => encodings.delete(coding));
    encodings.set(coding, encoded);
  }
  return encoded;
}
