import { createServer, type Server } from "node:http";
import type { Registry } from "prom-client";

export interface OpsServerOptions {
  registry: Registry;
  /** Whether the dependencies answer; /readyz is 503 otherwise. */
  ready: () => Promise<boolean>;
}

/**
 * `/healthz`, `/readyz` and `/metrics` for a process that has no HTTP API of its own (the ingest
 * worker). Built, not started: the caller listens.
 */
export function createOpsServer({ registry, ready }: OpsServerOptions): Server {
  return createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    const reply = (status: number, body: string, type = "application/json") => {
      res.writeHead(status, { "content-type": type });
      res.end(body);
    };
    if (path === "/healthz") return reply(200, '{"status":"ok"}');
    if (path === "/readyz") {
      ready().then(
        (ok) => reply(ok ? 200 : 503, JSON.stringify({ status: ok ? "ready" : "unavailable" })),
        () => reply(503, '{"status":"unavailable"}'),
      );
      return;
    }
    if (path === "/metrics") {
      registry.metrics().then(
        (text) => reply(200, text, registry.contentType),
        (error: Error) => reply(500, error.message, "text/plain"),
      );
      return;
    }
    reply(404, '{"status":"not found"}');
  });
}
