import type { RequestHandler, Router } from "express";
import type { z } from "zod";
import { parseQuery } from "../http/queryParams";
import type { QueryDeps } from "../query/statsQuery";

export type RouteDeps = QueryDeps;

export type Register = (router: Router, deps: RouteDeps) => void;

/** Adapts a handler that takes the validated query; handlers never read `req.query` themselves. */
export function withQuery<Schema extends z.ZodType>(
  schema: Schema,
  handler: (query: z.output<Schema>, ...rest: Parameters<RequestHandler>) => Promise<void>,
): RequestHandler {
  return async (req, res, next) => {
    await handler(parseQuery(schema, req.query), req, res, next);
  };
}
