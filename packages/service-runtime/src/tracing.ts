import { register } from "node:module";
import type { Instrumentation } from "@opentelemetry/instrumentation";
import type { tracing } from "@opentelemetry/sdk-node";
import { type TracingEnv, tracesConfigured } from "./tracingEnv";

export interface Tracing {
  /** Exports the spans still buffered, then stops: a service's last shutdown step. */
  shutdown(): Promise<void>;
}

export interface StartTracingOptions {
  env: TracingEnv;
  /** `service.name`, unless `OTEL_SERVICE_NAME` names another. */
  serviceName: string;
  /** The service's instrumentations, imported and built only when tracing starts. */
  instrumentations: () => Promise<Instrumentation[]>;
  /**
   * Where spans go instead of the exporters the environment names (a test's in-memory exporter);
   * given, tracing starts whatever the environment says.
   */
  spanProcessors?: tracing.SpanProcessor[];
}

const OFF: Tracing = { shutdown: async () => undefined };

/**
 * Starts the OpenTelemetry Node SDK when the `OTEL_*` variables ask for traces (`tracesConfigured`);
 * otherwise neither the SDK nor an instrumentation is loaded, and every span the code opens is
 * the API's no-op one. Traces only: metrics stay Prometheus' (`/metrics`), logs pino's.
 *
 * Call it before importing the modules it instruments. An ES module is instrumented through the
 * loader hook registered here (import-in-the-middle), which wraps only the modules imported after
 * it, and only those the instrumentations asked for (the message channel), so the service is
 * imported dynamically once this has resolved (both services' `main.ts`).
 */
export async function startTracing(options: StartTracingOptions): Promise<Tracing> {
  const { env, spanProcessors } = options;
  if (spanProcessors === undefined && !tracesConfigured(env)) return OFF;
  const { createAddHookMessageChannel } = await import("import-in-the-middle");
  const { registerOptions, waitForAllMessagesAcknowledged } = createAddHookMessageChannel();
  register("import-in-the-middle/hook.mjs", import.meta.url, registerOptions);
  const { NodeSDK } = await import("@opentelemetry/sdk-node");
  const sdk = new NodeSDK({
    serviceName: env.OTEL_SERVICE_NAME ?? options.serviceName,
    instrumentations: await options.instrumentations(),
    metricReaders: [],
    logRecordProcessors: [],
    ...(spanProcessors === undefined ? {} : { spanProcessors }),
  });
  sdk.start();
  await waitForAllMessagesAcknowledged();
  return { shutdown: () => sdk.shutdown() };
}
