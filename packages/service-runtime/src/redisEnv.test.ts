import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ConfigError, parseEnv } from "./env";
import { redisEnvSchema } from "./redisEnv";

function refusal(env: Record<string, string>): string {
  try {
    parseEnv(redisEnvSchema, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error("expected the environment to be refused");
}

describe("redisEnvSchema", () => {
  it("takes a URL without a password, or with a user and a secret one", () => {
    expect(parseEnv(redisEnvSchema, {}).REDIS_URL).toBe("redis://127.0.0.1:6379");
    const url = `redis://worker:${randomBytes(32).toString("hex")}@redis:6379`;
    expect(parseEnv(redisEnvSchema, { REDIS_URL: url }).REDIS_URL).toBe(url);
    expect(parseEnv(redisEnvSchema, { REDIS_URL: "redis://a:7000,redis://b:7001" }).REDIS_URL).toContain(",");
  });

  it("refuses a short or placeholder password, without echoing it", () => {
    const short = refusal({ REDIS_URL: "redis://:s3cret@redis:6379" });
    expect(short).toMatch(/REDIS_URL: the password of redis:\/\/:\*\*\*@redis:6379 must be at least 32/);
    expect(short).not.toContain("s3cret");
    expect(refusal({ REDIS_URL: "redis://api:change-me-change-me-change-me-change-me@redis:6379" })).toMatch(
      /looks like a placeholder/,
    );
    // Every seed URL of a cluster.
    const good = randomBytes(32).toString("hex");
    expect(refusal({ REDIS_URL: `redis://api:${good}@a:7000,redis://api:change-me@b:7001` })).toMatch(
      /the password of redis:\/\/api:\*\*\*@b:7001/,
    );
  });
});
