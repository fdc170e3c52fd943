import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { Instrumentation } from "@opentelemetry/instrumentation";
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor } from "@opentelemetry/sdk-trace-base";
import { loadTracingEnv, startTracing } from "@vu/service-runtime";
import type { CountableRecording } from "@vu/store";
import type { IsolatedNames } from "./names";

// A service's spans, tested as the service starts: tracing first, then the service's modules (an
// ES module is instrumented only when it is imported after the instrumentation's loader hook).
// Vitest imports the packages the services use by their file paths, which that hook does not
// recognize, so the service runs in a child process started as `main.ts` is (node with tsx's
// loader), its spans kept by the SDK's in-memory exporter, and handed to the test over IPC.

/** A finished span as the in-memory exporter held it, in a form that crosses IPC. */
export interface RecordedSpan {
  name: string;
  /** The instrumentation (or tracer) that made it. */
  scope: string;
  /** `SpanKind`: 0 internal, 1 server, 2 client, 3 producer, 4 consumer. */
  kind: number;
  traceId: string;
  spanId: string;
  parentSpanId: string | undefined;
  attributes: Record<string, unknown>;
  links: Array<{ traceId: string; spanId: string }>;
  /** `SpanStatusCode`: 0 unset, 1 ok, 2 error. */
  status: number;
}

type ToChild = { type: "spans" } | { type: "stop" };
type FromChild<Ready> = { type: "ready"; ready: Ready } | { type: "spans"; spans: RecordedSpan[] };

function recorded(span: ReadableSpan): RecordedSpan {
  return {
    name: span.name,
    scope: span.instrumentationScope.name,
    kind: span.kind,
    traceId: span.spanContext().traceId,
    spanId: span.spanContext().spanId,
    parentSpanId: span.parentSpanContext?.spanId,
    attributes: { ...span.attributes },
    links: span.links.map(({ context }) => ({ traceId: context.traceId, spanId: context.spanId })),
    status: span.status.code,
  };
}

/**
 * In the child, first thing: tracing as the service's `main.ts` starts it, with `instrumentations`,
 * into an in-memory exporter. Then import the service, and `serveParent` with what it started.
 */
export async function startRecordedTracing(
  serviceName: string,
  instrumentations: () => Promise<Instrumentation[]>,
): Promise<InMemorySpanExporter> {
  const exporter = new InMemorySpanExporter();
  await startTracing({
    env: loadTracingEnv(),
    serviceName,
    instrumentations,
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  return exporter;
}

/** In the child: tells the parent it is `ready`, hands it the finished spans when asked, and stops when told. */
export function serveParent<Ready>(
  exporter: InMemorySpanExporter,
  ready: Ready,
  stop: () => Promise<void>,
): void {
  const send = (message: FromChild<Ready>) => process.send?.(message);
  process.on("message", (message: ToChild) => {
    if (message.type === "spans") send({ type: "spans", spans: exporter.getFinishedSpans().map(recorded) });
    else void stop().finally(() => process.exit(0));
  });
  send({ type: "ready", ready });
}

export interface TracedProcess<Ready> {
  /** What the child said once its service was started (an address, a token …). */
  ready: Ready;
  /** The spans finished so far. */
  spans(): Promise<RecordedSpan[]>;
  stop(): Promise<void>;
}

/** The child entries: `traced/<name>.ts` in this folder. */
const entry = (name: string) => fileURLToPath(new URL(`./traced/${name}.ts`, import.meta.url));

/**
 * Starts `traced/<name>.ts` with the test's environment and `options` (JSON in `VU_TRACED_OPTIONS`),
 * and resolves once its service is started.
 */
export async function startTracedProcess<Ready>(
  name: string,
  options: unknown,
): Promise<TracedProcess<Ready>> {
  const child: ChildProcess = spawn(process.execPath, ["--import", "tsx", entry(name)], {
    env: { ...process.env, VU_TRACED_OPTIONS: JSON.stringify(options) },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const next = <T extends FromChild<Ready>["type"]>(type: T) =>
    new Promise<Extract<FromChild<Ready>, { type: T }>>((resolve, reject) => {
      const onMessage = (message: FromChild<Ready>) => {
        if (message.type !== type) return;
        child.off("message", onMessage);
        resolve(message as Extract<FromChild<Ready>, { type: T }>);
      };
      child.on("message", onMessage);
      void exited.then(() => reject(new Error(`traced/${name}.ts exited before sending ${type}`)));
    });
  const { ready } = await next("ready");
  const ask = (message: ToChild) => child.send(message);
  return {
    ready,
    async spans() {
      const answer = next("spans");
      ask({ type: "spans" });
      return (await answer).spans;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      ask({ type: "stop" });
      await exited;
    },
  };
}

/** Options a child entry was started with. */
export function tracedOptions<Options>(): Options {
  return JSON.parse(process.env.VU_TRACED_OPTIONS ?? "{}") as Options;
}

export interface TracedApiOptions {
  nowMs: number;
  /** Organizations that get a token. */
  orgs: string[];
  /** Recordings written to the store by organization (the worker's code path), before `ready`. */
  recordings?: Record<string, CountableRecording[]>;
  /**
   * Run as two API processes do (apiProcesses.ts): the server the test calls forwards every
   * question that would read more than 100 fields to a large-read server on a Unix socket.
   */
  largeReadProcess?: boolean;
}

export interface TracedApiReady {
  baseUrl: string;
  /** The ops server's (`/healthz`, `/readyz`, `/metrics`). */
  opsUrl: string;
  /** Each organization's token. */
  tokens: Record<string, string>;
}

/** The query API in a child process (the test kit's `startApiServer`), traced as `main.ts` traces it. */
export const startTracedApi = (options: TracedApiOptions) =>
  startTracedProcess<TracedApiReady>("queryApi", options);

export interface TracedWorkerOptions {
  names: IsolatedNames;
}

/** The ingest worker in a child process (the test kit's `startInProcessWorker`), traced as `main.ts` traces it. */
export const startTracedWorker = (options: TracedWorkerOptions) =>
  startTracedProcess<Record<string, never>>("ingestWorker", options);
