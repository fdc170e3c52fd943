import type { Instrumentation } from "@opentelemetry/instrumentation";
import { redisInstrumentation } from "@vu/service-runtime";

/**
 * The worker's instrumentations: its Redis commands, as children of the span of the chunk they
 * apply (chunkSpan.ts). kafkajs has none here: a chunk's span stands for its records, and links
 * to their producers. Nothing here may import the worker's other modules: they must load after
 * the instrumentation's hook.
 */
export async function workerInstrumentations(): Promise<Instrumentation[]> {
  return [await redisInstrumentation()];
}
