import { describe, expect, it } from "vitest";
import { ConfigError } from "./env";
import { loadTracingEnv, tracesConfigured } from "./tracingEnv";

const configured = (env: Record<string, string>) => tracesConfigured(loadTracingEnv(env));

describe("tracesConfigured", () => {
  it("is off when no variable asks for traces", () => {
    expect(configured({})).toBe(false);
    expect(configured({ OTEL_SERVICE_NAME: "api", OTEL_TRACES_SAMPLER: "always_on" })).toBe(false);
    // Empty is unset, as the specification reads it.
    expect(configured({ OTEL_TRACES_EXPORTER: "", OTEL_EXPORTER_OTLP_ENDPOINT: "" })).toBe(false);
  });

  it("is on with an exporter named or an OTLP endpoint given", () => {
    expect(configured({ OTEL_TRACES_EXPORTER: "console" })).toBe(true);
    expect(configured({ OTEL_TRACES_EXPORTER: "otlp, console" })).toBe(true);
    expect(configured({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" })).toBe(true);
    expect(configured({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "http://collector:4318/v1/traces" })).toBe(true);
  });

  it("is off with the exporter none or the SDK disabled, whatever else is set", () => {
    expect(configured({ OTEL_TRACES_EXPORTER: "none", OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318" })).toBe(
      false,
    );
    expect(configured({ OTEL_SDK_DISABLED: "true", OTEL_TRACES_EXPORTER: "otlp" })).toBe(false);
    expect(configured({ OTEL_SDK_DISABLED: "false", OTEL_TRACES_EXPORTER: "otlp" })).toBe(true);
  });
});

describe("loadTracingEnv", () => {
  it("reads the values the SDK is given", () => {
    const env = loadTracingEnv({
      OTEL_TRACES_EXPORTER: "otlp,console",
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "grpc",
      OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
      OTEL_TRACES_SAMPLER_ARG: "0.25",
      OTEL_PROPAGATORS: "tracecontext,baggage",
    });
    expect(env).toMatchObject({
      OTEL_TRACES_EXPORTER: ["otlp", "console"],
      OTEL_EXPORTER_OTLP_TRACES_PROTOCOL: "grpc",
      OTEL_TRACES_SAMPLER_ARG: 0.25,
      OTEL_PROPAGATORS: ["tracecontext", "baggage"],
    });
  });

  it("names every variable the SDK would only warn about", () => {
    try {
      loadTracingEnv({
        OTEL_TRACES_EXPORTER: "otlp,jaegr",
        OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318 ",
        OTEL_EXPORTER_OTLP_PROTOCOL: "http",
        OTEL_TRACES_SAMPLER: "ratio",
        OTEL_TRACES_SAMPLER_ARG: "2",
        OTEL_PROPAGATORS: "none,tracecontext",
        OTEL_SDK_DISABLED: "yes",
      });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems.map((p) => p.split(/[.:]/)[0]).sort()).toEqual(
        [
          "OTEL_EXPORTER_OTLP_ENDPOINT",
          "OTEL_EXPORTER_OTLP_PROTOCOL",
          "OTEL_PROPAGATORS",
          "OTEL_SDK_DISABLED",
          "OTEL_TRACES_EXPORTER",
          "OTEL_TRACES_SAMPLER",
          "OTEL_TRACES_SAMPLER_ARG",
        ].sort(),
      );
    }
  });
});
