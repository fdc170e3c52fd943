import { request } from "node:http";
import { context, propagation } from "@opentelemetry/api";
import type { Logger } from "@vu/service-runtime";
import type { ErrorRequestHandler, Request, Response } from "express";
import { LargeReadElsewhereError } from "../query/largeReads";
import { ProblemError } from "./problemError";

/** Names the hop in the answer, as a proxy does (RFC 9110 §7.6.3). */
export const LARGE_READ_VIA = "1.1 large-read-process";
/** Connection-specific headers, which a proxy never passes on (RFC 9110 §7.6.1). */
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "transfer-encoding",
  "upgrade",
  "te",
  "trailer",
]);
const RETRY_AFTER_S = 1;
/** Longer than a large read waits for its turn and takes (LARGE_READ_WAIT_MS and more): a stuck process. */
const ANSWER_TIMEOUT_MS = 60_000;

function withoutHopByHop(headers: Record<string, string | string[] | undefined>) {
  return Object.fromEntries(
    Object.entries(headers).filter(([name, value]) => value !== undefined && !HOP_BY_HOP.has(name)),
  ) as Record<string, string | string[]>;
}

/**
 * Hands a request whose computation stopped before a large read (LargeReadElsewhereError) to the
 * large-read process over its Unix socket, and sends its answer on as it is (status, headers, the
 * body already compressed for the client). That process runs at a lower priority, one large read at
 * a time, and keeps the answers it computed, so every page of a large answer is asked of it. The
 * request was authenticated and counted against the token's limit here; the large-read process
 * counts nothing again. If it cannot be reached (it is being replaced): 503 with `Retry-After`.
 */
export function createLargeReadForwarding(socketPath: string, logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (!(error instanceof LargeReadElsewhereError) || res.headersSent) return next(error);
    const copied: string[] = [];
    forward(req, res, socketPath, copied).catch((cause: unknown) => {
      logger.warn({ err: cause }, "the large-read process did not answer");
      if (res.headersSent) {
        res.destroy();
        return;
      }
      // The answer that failed before its first byte left nothing of its own on the problem.
      for (const name of copied) res.removeHeader(name);
      next(
        new ProblemError(503, "Large questions cannot be computed right now; try again shortly.", {
          headers: { "Retry-After": String(RETRY_AFTER_S) },
        }),
      );
    });
  };
}

function forward(req: Request, res: Response, socketPath: string, copied: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    // The request keeps the id this process gave it (its log and the client see the same one).
    const headers = {
      ...withoutHopByHop(req.headers),
      "x-request-id": String(res.getHeader("X-Request-Id") ?? ""),
    };
    // With tracing, the large-read process's span is a child of this request's (`traceparent`).
    propagation.inject(context.active(), headers);
    const upstream = request(
      { socketPath, method: req.method, path: req.originalUrl, headers, timeout: ANSWER_TIMEOUT_MS },
      (answer) => {
        const answered = withoutHopByHop(answer.headers);
        copied.push(...Object.keys(answered), "Via");
        res.status(answer.statusCode ?? 502);
        res.set(answered);
        res.append("Via", LARGE_READ_VIA);
        answer.pipe(res);
        answer.once("end", resolve);
        answer.once("error", reject);
      },
    );
    upstream.once("error", reject);
    upstream.once("timeout", () => upstream.destroy(new Error("the large-read process took too long")));
    // The client went away: so does the question.
    res.once("close", () => upstream.destroy());
    upstream.end();
  });
}
