import type { Instrumentation } from "@opentelemetry/instrumentation";

/**
 * A span for each Redis command sent within another span (an HTTP request, an applied chunk), as
 * its child; commands sent outside one (the worker's watches, the readiness probes) make none.
 * A span names its command, never its arguments: keys name organizations, and arguments carry
 * whole batches and token hashes.
 */
export async function redisInstrumentation(): Promise<Instrumentation> {
  const { IORedisInstrumentation } = await import("@opentelemetry/instrumentation-ioredis");
  return new IORedisInstrumentation({
    requireParentSpan: true,
    dbStatementSerializer: (command) => command,
  });
}
