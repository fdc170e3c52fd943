import type { IncomingMessage } from "node:http";
import type { Instrumentation } from "@opentelemetry/instrumentation";
import { redisInstrumentation } from "@vu/service-runtime";

/** Called every few seconds by probes and scrapers: their spans would bury the requests'. */
const UNTRACED_PATHS: ReadonlySet<string> = new Set(["/healthz", "/readyz", "/metrics"]);

const pathOf = (request: IncomingMessage) => (request.url ?? "").split("?", 1)[0] ?? "";

/**
 * The API's spans: one server span per HTTP request (named by its route), a span for each
 * request handler, and the request's Redis commands as their children. Middleware and routers make
 * no span of their own (their Redis commands are the request's children). The server span's path,
 * query, client address and user agent are replaced as the request's log line has them
 * (http/serverSpanPrivacy.ts). No span for the one request the API sends (to its large-read
 * process), which carries the trace on itself (http/largeReadForwarding.ts).
 *
 * Nothing here may import the API's other modules: they must load after the instrumentation's hook.
 */
export async function apiInstrumentations(): Promise<Instrumentation[]> {
  const [{ HttpInstrumentation }, { ExpressInstrumentation, ExpressLayerType }] = await Promise.all([
    import("@opentelemetry/instrumentation-http"),
    import("@opentelemetry/instrumentation-express"),
  ]);
  return [
    new HttpInstrumentation({
      ignoreIncomingRequestHook: (request) => UNTRACED_PATHS.has(pathOf(request)),
      disableOutgoingRequestInstrumentation: true,
    }),
    new ExpressInstrumentation({ ignoreLayersType: [ExpressLayerType.MIDDLEWARE, ExpressLayerType.ROUTER] }),
    await redisInstrumentation(),
  ];
}
