import type { Logger } from "@vu/service-runtime";
import { ReadKeptMovingError, StoreError, ViewNotLiveError } from "@vu/store";
import type { ErrorRequestHandler, RequestHandler } from "express";
import { InvalidParameterError } from "../planner";
import { LargeReadsBusyError } from "../query/largeReads";
import { OrganizationBusyError } from "../query/organizationGate";
import { ProblemError } from "./problemError";

function send(res: Parameters<RequestHandler>[1], problem: ProblemError): void {
  res
    .status(problem.status)
    .set(problem.headers)
    .type("application/problem+json")
    .send(JSON.stringify(problem.toBody()));
}

const RETRY_SOON = { "Retry-After": "5" } as const;

/** Unknown paths get a problem body too, not Express's HTML page. */
export const notFound: RequestHandler = (req, _res, next) => {
  next(new ProblemError(404, `No operation at ${req.method} ${req.path}.`));
};

/**
 * The one error middleware: ours → problem+json with its status (a domain InvalidParameterError
 * → a 400 naming the parameter; an organization with too many questions under way → 429 with
 * Retry-After); the store being unreachable, or not live (Redis lost its state and the topic is
 * being replayed), or a large read that never saw one state of a busy organization → 503, never
 * numbers it knows to be wrong; anything else is a bug → logged, and a 500 that reveals nothing.
 */
export function createErrorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, _req, res, next) => {
    if (res.headersSent) return next(error);
    if (error instanceof ProblemError) return send(res, error);
    if (error instanceof InvalidParameterError) {
      return send(res, ProblemError.invalidParameter(error.parameter, error.message));
    }
    if (error instanceof OrganizationBusyError) {
      return send(
        res,
        new ProblemError(
          429,
          `Too many of this organization's questions are being computed; try again in ${error.retryAfterS} s.`,
          { headers: { "Retry-After": String(error.retryAfterS) } },
        ),
      );
    }
    if (error instanceof LargeReadsBusyError) {
      return send(
        res,
        new ProblemError(
          503,
          `Too many large questions are being computed; try again in ${error.retryAfterS} s.`,
          { headers: { "Retry-After": String(error.retryAfterS) } },
        ),
      );
    }
    if (error instanceof ViewNotLiveError) {
      logger.warn({ reason: error.message }, "store not live");
      return send(
        res,
        new ProblemError(503, `${error.message}. Try again shortly.`, { headers: RETRY_SOON }),
      );
    }
    if (error instanceof ReadKeptMovingError) {
      logger.warn({ fields: error.fields, attempts: error.attempts }, "a large read never saw one state");
      return send(
        res,
        new ProblemError(
          503,
          "This organization's data changed during every attempt to read this large question; try again shortly.",
          { headers: RETRY_SOON },
        ),
      );
    }
    if (error instanceof StoreError) {
      logger.warn({ err: error.cause ?? error }, "store unavailable");
      return send(
        res,
        new ProblemError(503, "The statistics store is unavailable; try again shortly.", {
          headers: RETRY_SOON,
        }),
      );
    }
    logger.error({ err: error }, "unexpected error");
    send(res, new ProblemError(500, "An unexpected error occurred."));
  };
}
