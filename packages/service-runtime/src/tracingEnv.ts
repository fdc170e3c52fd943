import { z } from "zod";
import { parseEnv } from "./env";

/** What `OTEL_TRACES_EXPORTER` may name: the exporters the OpenTelemetry Node SDK builds. */
export const TRACE_EXPORTERS = ["otlp", "console", "zipkin", "none"] as const;
export const OTLP_PROTOCOLS = ["grpc", "http/protobuf", "http/json"] as const;
export const TRACE_SAMPLERS = [
  "always_on",
  "always_off",
  "traceidratio",
  "parentbased_always_on",
  "parentbased_always_off",
  "parentbased_traceidratio",
] as const;
export const PROPAGATORS = ["tracecontext", "baggage", "b3", "b3multi", "jaeger", "none"] as const;

/** An OTLP/HTTP or gRPC endpoint: the SDK's exporters take http(s) URLs only. */
const endpoint = z.url({ protocol: /^https?$/, error: "must be an http:// or https:// URL" });

/** The OpenTelemetry specification reads an empty variable as an unset one. */
const unsetWhenEmpty = <Schema extends z.ZodType>(schema: Schema) =>
  z.preprocess((value) => (value === "" ? undefined : value), schema.optional());

const listOf = <Values extends readonly [string, ...string[]]>(values: Values) =>
  z
    .string()
    .transform((v) =>
      v
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s.length > 0),
    )
    .pipe(z.array(z.enum(values)).min(1, "must name at least one value"))
    .refine((list) => !list.includes("none") || list.length === 1, "none cannot be named with others");

/**
 * The standard `OTEL_*` variables that decide whether the services trace, where spans go and how
 * many are kept, checked at start-up like every other variable (a misspelt exporter or sampler
 * would otherwise be a warning on the SDK's own diagnostic channel, which nothing reads). The SDK
 * reads these and the others (`OTEL_RESOURCE_ATTRIBUTES`, `OTEL_EXPORTER_OTLP_HEADERS`,
 * `OTEL_BSP_*`, …) from the environment itself.
 */
export const tracingEnvSchema = z.object({
  OTEL_SDK_DISABLED: unsetWhenEmpty(
    z.enum(["true", "false"], { error: "must be true or false" }).transform((v) => v === "true"),
  ),
  OTEL_TRACES_EXPORTER: unsetWhenEmpty(listOf(TRACE_EXPORTERS)),
  OTEL_EXPORTER_OTLP_ENDPOINT: unsetWhenEmpty(endpoint),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: unsetWhenEmpty(endpoint),
  OTEL_EXPORTER_OTLP_PROTOCOL: unsetWhenEmpty(z.enum(OTLP_PROTOCOLS)),
  OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: unsetWhenEmpty(z.enum(OTLP_PROTOCOLS)),
  OTEL_SERVICE_NAME: unsetWhenEmpty(z.string()),
  OTEL_TRACES_SAMPLER: unsetWhenEmpty(z.enum(TRACE_SAMPLERS)),
  /** The ratio of the `*traceidratio` samplers. */
  OTEL_TRACES_SAMPLER_ARG: unsetWhenEmpty(
    z
      .string()
      .regex(/^(0(\.\d+)?|1(\.0+)?)$/, "must be a ratio from 0 to 1")
      .transform(Number),
  ),
  OTEL_PROPAGATORS: unsetWhenEmpty(listOf(PROPAGATORS)),
});

export type TracingEnv = z.output<typeof tracingEnvSchema>;

export function loadTracingEnv(env: Record<string, string | undefined> = process.env): Readonly<TracingEnv> {
  return parseEnv(tracingEnvSchema, env);
}

/**
 * Whether the environment asks for traces: an exporter other than `none` is named, or an OTLP
 * endpoint is given (the SDK's default exporter is OTLP), and the SDK is not disabled. Otherwise
 * nothing of the SDK is loaded.
 */
export function tracesConfigured(env: TracingEnv): boolean {
  if (env.OTEL_SDK_DISABLED === true) return false;
  if (env.OTEL_TRACES_EXPORTER !== undefined) return !env.OTEL_TRACES_EXPORTER.includes("none");
  return (
    env.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT !== undefined
  );
}
