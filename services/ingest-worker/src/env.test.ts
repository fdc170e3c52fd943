import { ConfigError } from "@vu/service-runtime";
import { describe, expect, it } from "vitest";
import { loadWorkerEnv } from "./env";

describe("worker env", () => {
  it("has working defaults", () => {
    const env = loadWorkerEnv({});
    expect(env.KAFKA_BROKERS).toEqual(["localhost:9092"]);
    expect(env.RETENTION_MINUTE_DAYS).toBe(35);
    expect(env.RETENTION_DAY_DAYS).toBeNull();
  });

  it("rejects a heartbeat that does not fit three times into the session timeout", () => {
    expect(() =>
      loadWorkerEnv({ KAFKA_SESSION_TIMEOUT_MS: "9000", KAFKA_HEARTBEAT_INTERVAL_MS: "3001" }),
    ).toThrow(/KAFKA_HEARTBEAT_INTERVAL_MS: must be at most a third/);
  });

  it("rejects hour data kept shorter than minute data", () => {
    expect(() => loadWorkerEnv({ RETENTION_MINUTE_DAYS: "40", RETENTION_HOUR_DAYS: "30" })).toThrow(
      ConfigError,
    );
  });
});
