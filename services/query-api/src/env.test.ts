import { ConfigError } from "@vu/service-runtime";
import { describe, expect, it } from "vitest";
import { API_ENV_DEFAULTS, loadApiEnv } from "./env";

describe("loadApiEnv", () => {
  it("defaults: 60 refused requests an address a minute, no proxy trusted", () => {
    const env = loadApiEnv({});
    expect(env.UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE).toBe(60);
    expect(env.TRUST_PROXY).toBe(false);
    expect(API_ENV_DEFAULTS).toEqual(env);
  });

  it.each([
    ["true", true],
    ["false", false],
    ["2", 2],
    ["loopback", ["loopback"]],
    [" 10.0.0.0/8, 192.168.1.7 ,fd00::/8,linklocal", ["10.0.0.0/8", "192.168.1.7", "fd00::/8", "linklocal"]],
    ["10.0.0.0/255.0.0.0", ["10.0.0.0/255.0.0.0"]],
  ])("reads TRUST_PROXY=%s", (value, expected) => {
    expect(loadApiEnv({ TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });

  it.each(["yes", "10.0.0.0/33", "example.com", "::1/129", ","])(
    "refuses TRUST_PROXY=%s, naming it",
    (value) => {
      expect(() => loadApiEnv({ TRUST_PROXY: value })).toThrow(ConfigError);
      expect(() => loadApiEnv({ TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
    },
  );

  it("refuses a per-address limit of 0", () => {
    expect(() => loadApiEnv({ UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: "0" })).toThrow(
      /UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE/,
    );
  });
});
