import { ConfigError } from "@vu/service-runtime";
import { DEFAULT_RETENTION } from "@vu/time-buckets";
import { describe, expect, it } from "vitest";
import { API_ENV_DEFAULTS, loadApiEnv } from "./env";
import { planQuery } from "./planner";

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

  it("slices reads smaller than it calls large, and reads both apart", () => {
    const env = loadApiEnv({});
    expect(env.READ_SLICE_FIELDS).toBeLessThan(env.LARGE_READ_FIELDS);
    const set = loadApiEnv({ READ_SLICE_FIELDS: "1000", LARGE_READ_FIELDS: "50000" });
    expect([set.READ_SLICE_FIELDS, set.LARGE_READ_FIELDS]).toEqual([1_000, 50_000]);
    expect(() => loadApiEnv({ LARGE_READ_FIELDS: "10" })).toThrow(/LARGE_READ_FIELDS/);
  });

  it("serves the ops endpoints on a port of their own, never PORT", () => {
    expect(loadApiEnv({}).OPS_PORT).not.toBe(loadApiEnv({}).PORT);
    expect(loadApiEnv({ PORT: "0", OPS_PORT: "0" }).OPS_PORT).toBe(0);
    expect(() => loadApiEnv({ PORT: "9000", OPS_PORT: "9000" })).toThrow(/OPS_PORT: must differ from PORT/);
    expect(() => loadApiEnv({ OPS_PORT: "8080" })).toThrow(/OPS_PORT/);
  });

  it("refuses a per-address limit of 0", () => {
    expect(() => loadApiEnv({ UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE: "0" })).toThrow(
      /UNAUTHENTICATED_RATE_LIMIT_PER_MINUTE/,
    );
  });
});

describe("MAX_BLOCKS_PER_REQUEST's default", () => {
  // Sized so that every query of at most 10,000 buckets within the retention is answered.
  it.each([
    "+05:45",
    "+05:30",
    "Asia/Kolkata",
    "America/St_Johns",
    "Australia/Adelaide",
    "Europe/Berlin",
    "UTC",
  ])("covers the longest hourly query in %s", (timezone) => {
    const now = Date.parse("2026-11-22T12:00:00Z");
    const plan = planQuery(
      {
        startDate: new Date(now - 9_990 * 3_600_000).toISOString(),
        endDate: new Date(now).toISOString(),
        granularity: "hour",
        timezone,
      },
      { now, retention: DEFAULT_RETENTION },
    );
    const blocks = plan.buckets.reduce((n, b) => n + b.blocks.length, 0);
    expect(blocks).toBeLessThanOrEqual(API_ENV_DEFAULTS.MAX_BLOCKS_PER_REQUEST);
  });
});
