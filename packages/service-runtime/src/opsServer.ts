import { createServer, type Server } from "node:http";
import type { Registry } from "prom-client";

/** A readiness verdict with the reasons it is not ready (e.g. `redisHealth` of @vu/store). */
export interface Readiness {
  ok: boolean;
  reasons: string[];
}

export interface OpsServerOptions {
  registry: Registry;
  /** What /metrics answers, in the registry's format. Default: the registry's own text. */
  metricsText?: () => Promise<string>;
  /** Whether the dependencies answer; /readyz is 503 otherwise, with the reasons when given. */
  ready: () => Promise<boolean | Readiness>;
}

function readinessBody(verdict: boolean | Readiness): { ok: boolean; body: string } {
  const { ok, reasons } = typeof verdict === "boolean" ? { ok: verdict, reasons: [] } : verdict;
  return { ok, body: JSON.stringify({ status: ok ? "ready" : "unavailable", reasons }) };
}

/**
 * `/healthz`, `/readyz` and `/metrics` on a port of their own (`OPS_PORT`), apart from any public
 * one: a readiness check asks every Redis node, and the metrics tell how the service is used, so
 * they are for the orchestrator and Prometheus, on a port only they reach. Built, not started:
 * the caller listens.
 */
export function createOpsServer({
  registry,
  metricsText = () => registry.metrics(),
  ready,
}: OpsServerOptions): Server {
  return createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    const reply = (status: number, body: string, type = "application/json") => {
      res.writeHead(status, { "content-type": type });
      res.end(body);
    };
    if (path === "/healthz") return reply(200, '{"status":"ok"}');
    if (path === "/readyz") {
      ready().then(
        (verdict) => {
          const { ok, body } = readinessBody(verdict);
          reply(ok ? 200 : 503, body);
        },
        (error: unknown) => reply(503, JSON.stringify({ status: "unavailable", reasons: [String(error)] })),
      );
      return;
    }
    if (path === "/metrics") {
      metricsText().then(
        (text) => reply(200, text, registry.contentType),
        (error: Error) => reply(500, error.message, "text/plain"),
      );
      return;
    }
    reply(404, '{"status":"not found"}');
  });
}
