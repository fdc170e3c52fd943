import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ConfigError, parseEnv } from "./env";
import { kafkaConnection, kafkaEnvSchema } from "./kafkaEnv";

const secret = () => randomBytes(32).toString("hex");

function refusal(env: Record<string, string>): string {
  try {
    parseEnv(kafkaEnvSchema, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error("expected the environment to be refused");
}

describe("kafkaEnvSchema", () => {
  it("connects without logging in when no mechanism is set (the development stack, the tests)", () => {
    const env = parseEnv(kafkaEnvSchema, { KAFKA_BROKERS: "a:1,b:2" });
    expect(kafkaConnection(env)).toEqual({ brokers: ["a:1", "b:2"] });
    expect(kafkaConnection(parseEnv(kafkaEnvSchema, {}))).toEqual({ brokers: ["localhost:9092"] });
  });

  it("logs in with SCRAM, over TLS when asked", () => {
    const password = secret();
    const env = parseEnv(kafkaEnvSchema, {
      KAFKA_BROKERS: "kafka:19092",
      KAFKA_SASL_MECHANISM: "scram-sha-512",
      KAFKA_SASL_USERNAME: "worker",
      KAFKA_SASL_PASSWORD: password,
      KAFKA_SSL: "true",
    });
    expect(kafkaConnection(env)).toEqual({
      brokers: ["kafka:19092"],
      ssl: true,
      sasl: { mechanism: "scram-sha-512", username: "worker", password },
    });
  });

  it("refuses a mechanism without a user name or password, and a password that is no secret", () => {
    expect(refusal({ KAFKA_SASL_MECHANISM: "scram-sha-256" })).toMatch(
      /KAFKA_SASL_USERNAME: is required when KAFKA_SASL_MECHANISM is set[\s\S]*KAFKA_SASL_PASSWORD: is required/,
    );
    const login = { KAFKA_SASL_MECHANISM: "scram-sha-512", KAFKA_SASL_USERNAME: "worker" };
    expect(refusal({ ...login, KAFKA_SASL_PASSWORD: "change-me" })).toMatch(
      /KAFKA_SASL_PASSWORD: must be at least 32 characters/,
    );
    expect(refusal({ ...login, KAFKA_SASL_PASSWORD: "change-me-change-me-change-me-change-me" })).toMatch(
      /KAFKA_SASL_PASSWORD: looks like a placeholder/,
    );
    expect(refusal({ KAFKA_SASL_MECHANISM: "plain" })).toMatch(/KAFKA_SASL_MECHANISM/);
    expect(refusal({ KAFKA_SSL: "yes" })).toMatch(/KAFKA_SSL: must be true or false/);
  });

  it("refuses a user name or password without a mechanism, rather than connecting without logging in", () => {
    expect(refusal({ KAFKA_SASL_USERNAME: "worker", KAFKA_SASL_PASSWORD: secret() })).toMatch(
      /KAFKA_SASL_MECHANISM: is required when KAFKA_SASL_USERNAME is set/,
    );
  });

  it("never echoes the password", () => {
    const password = "short-password";
    expect(
      refusal({
        KAFKA_SASL_MECHANISM: "scram-sha-512",
        KAFKA_SASL_USERNAME: "w",
        KAFKA_SASL_PASSWORD: password,
      }),
    ).not.toContain(password);
  });
});
