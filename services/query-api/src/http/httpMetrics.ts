import type { RequestHandler } from "express";
import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";
import { CACHE_LOOKUPS, type CacheLookup } from "../cache/resultCache";

/** The result cache's lookups by outcome: the bench reads them to report a hit rate under ingest. */
export const CACHE_LOOKUPS_METRIC = "vu_result_cache_lookups_total";

export interface HttpMetrics {
  registry: Registry;
  middleware: RequestHandler;
  /** Questions by how the result cache answered them (resultCache.ts `onLookup`). */
  cacheLookups: Counter<"outcome">;
  /** What /metrics answers: the registry's text, or every API process's summed (apiProcesses.ts). */
  text: () => Promise<string>;
}

/**
 * The API process's registry: request latency by route template (never the raw path: bounded label
 * values) and status, and the result cache's lookups; app.ts adds the Redis and view gauges.
 */
export function createHttpMetrics(): HttpMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const duration = new Histogram({
    name: "vu_http_request_duration_seconds",
    help: "HTTP request latency",
    labelNames: ["method", "route", "status"],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const cacheLookups = new Counter({
    name: CACHE_LOOKUPS_METRIC,
    help: "Questions by how the result cache answered them: hit (a kept answer), joined (a computation under way), miss (computed after looking), bypass (computed without looking: no key, the cache off, or no-cache)",
    labelNames: ["outcome"],
    registers: [registry],
  });
  // Every outcome from the start, so that a rate over them never misses the first one.
  for (const outcome of CACHE_LOOKUPS satisfies readonly CacheLookup[]) cacheLookups.inc({ outcome }, 0);
  const middleware: RequestHandler = (req, res, next) => {
    const end = duration.startTimer();
    res.on("finish", () => {
      const route = req.route?.path ? `${req.baseUrl}${String(req.route.path)}` : "unmatched";
      end({ method: req.method, route, status: String(res.statusCode) });
    });
    next();
  };
  return { registry, middleware, cacheLookups, text: () => registry.metrics() };
}
