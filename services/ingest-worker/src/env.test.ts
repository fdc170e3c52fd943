import { tokenSigningKeyId } from "@vu/events";
import { ConfigError } from "@vu/service-runtime";
import { describe, expect, it } from "vitest";
import { loadWorkerEnv, workerConfigFromEnv } from "./env";

/** The one variable without a default. */
const TOKENS_SIGNING_KEY = "5d0e9b3c7a1f4e2d8c6b0a9f3e7d1c5b";

describe("worker env", () => {
  it("has working defaults", () => {
    const env = loadWorkerEnv({ TOKENS_SIGNING_KEY });
    expect(env.KAFKA_BROKERS).toEqual(["localhost:9092"]);
    expect(env.RETENTION_MINUTE_DAYS).toBe(35);
    expect(env.RETENTION_DAY_DAYS).toBeNull();
    expect(env.TOKENS_SIGNING_KEYS_PREVIOUS).toEqual([]);
    expect(env.TOKENS_REVOCATION_CHECK_MS).toBe(10_000);
  });

  it("refuses to start without a token signing key, or with a placeholder", () => {
    expect(() => loadWorkerEnv({})).toThrow(/TOKENS_SIGNING_KEY: is required/);
    expect(() => loadWorkerEnv({ TOKENS_SIGNING_KEY: "change-me" })).toThrow(
      /TOKENS_SIGNING_KEY: must be at least 32 characters/,
    );
    expect(() => loadWorkerEnv({ TOKENS_SIGNING_KEY: "change-me-".repeat(4) })).toThrow(
      /TOKENS_SIGNING_KEY: looks like a placeholder/,
    );
  });

  it("verifies records signed with the current or a previous key, and keeps the keys out of its config", () => {
    const previous = "e4c2a0f8d6b4e2c0a8f6d4b2e0c8a6f4";
    const config = workerConfigFromEnv(
      loadWorkerEnv({ TOKENS_SIGNING_KEY, TOKENS_SIGNING_KEYS_PREVIOUS: previous }),
    );
    expect(config.tokenRecords.keyIds).toEqual([
      tokenSigningKeyId(TOKENS_SIGNING_KEY),
      tokenSigningKeyId(previous),
    ]);
    expect(JSON.stringify(config)).not.toContain(TOKENS_SIGNING_KEY);
    expect(JSON.stringify(config)).not.toContain(previous);
  });

  it("rejects a heartbeat that does not fit three times into the session timeout", () => {
    expect(() =>
      loadWorkerEnv({
        TOKENS_SIGNING_KEY,
        KAFKA_SESSION_TIMEOUT_MS: "9000",
        KAFKA_HEARTBEAT_INTERVAL_MS: "3001",
      }),
    ).toThrow(/KAFKA_HEARTBEAT_INTERVAL_MS: must be at most a third/);
  });

  it("rejects hour data kept shorter than minute data", () => {
    expect(() =>
      loadWorkerEnv({ TOKENS_SIGNING_KEY, RETENTION_MINUTE_DAYS: "40", RETENTION_HOUR_DAYS: "30" }),
    ).toThrow(ConfigError);
  });
});
