import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigError, parseEnv } from "./env";
import { envInt, envList, envRetentionDays } from "./envFields";

const schema = z.object({
  PORT: envInt(8080, { min: 1, max: 65535 }),
  KAFKA_BROKERS: envList("localhost:9092"),
  RETENTION_DAY_DAYS: envRetentionDays(null),
});

describe("parseEnv", () => {
  it("applies defaults and explicit transforms, and freezes the result", () => {
    const env = parseEnv(schema, { KAFKA_BROKERS: "a:1, b:2,", RETENTION_DAY_DAYS: "30" });
    expect(env).toEqual({ PORT: 8080, KAFKA_BROKERS: ["a:1", "b:2"], RETENTION_DAY_DAYS: 30 });
    expect(Object.isFrozen(env)).toBe(true);
    expect(parseEnv(schema, { RETENTION_DAY_DAYS: "forever" }).RETENTION_DAY_DAYS).toBeNull();
  });

  it("names every offending variable", () => {
    try {
      parseEnv(schema, { PORT: "80a", KAFKA_BROKERS: " , " });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).problems.map((p) => p.split(":")[0])).toEqual(["PORT", "KAFKA_BROKERS"]);
    }
  });
});
