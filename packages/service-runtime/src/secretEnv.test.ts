import { randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { ConfigError, parseEnv } from "./env";
import { secretProblem, tokenSigningEnvShape } from "./secretEnv";

const schema = z.object(tokenSigningEnvShape);
const key = () => randomBytes(32).toString("hex");

/** The message parseEnv gives for `env`, which must be refused. */
function refusal(env: Record<string, string>): string {
  try {
    parseEnv(schema, env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).message;
  }
  throw new Error("expected the environment to be refused");
}

describe("tokenSigningEnvShape", () => {
  it("reads the signing key and the previous keys of a rotation", () => {
    const [current, old1, old2] = [key(), key(), randomBytes(33).toString("base64url")];
    expect(parseEnv(schema, { TOKENS_SIGNING_KEY: current })).toEqual({
      TOKENS_SIGNING_KEY: current,
      TOKENS_SIGNING_KEYS_PREVIOUS: [],
    });
    expect(
      parseEnv(schema, { TOKENS_SIGNING_KEY: current, TOKENS_SIGNING_KEYS_PREVIOUS: ` ${old1}, ${old2},` })
        .TOKENS_SIGNING_KEYS_PREVIOUS,
    ).toEqual([old1, old2]);
  });

  it("refuses a missing, short or placeholder key, naming the variable", () => {
    expect(refusal({})).toMatch(/TOKENS_SIGNING_KEY: is required: a random secret of at least 32/);
    expect(refusal({ TOKENS_SIGNING_KEY: "s3cr3t" })).toMatch(
      /TOKENS_SIGNING_KEY: must be at least 32 characters \(it has 6\)/,
    );
    for (const placeholder of [
      "change-me-change-me-change-me-change-me",
      "please-CHANGEME-before-deploying-this",
      "<your-secret-here-of-32-characters-or-more>",
      "a".repeat(64),
      "0123401234012340123401234012340123401234",
    ]) {
      expect(refusal({ TOKENS_SIGNING_KEY: placeholder }), placeholder).toMatch(
        /TOKENS_SIGNING_KEY: looks like a placeholder/,
      );
    }
    expect(refusal({ TOKENS_SIGNING_KEY: key(), TOKENS_SIGNING_KEYS_PREVIOUS: `${key()},short` })).toMatch(
      /TOKENS_SIGNING_KEYS_PREVIOUS\.1: must be at least 32 characters/,
    );
  });

  it("accepts random keys in the usual encodings", () => {
    for (let i = 0; i < 200; i++) {
      expect(secretProblem(randomBytes(16).toString("hex"))).toBeUndefined();
      expect(secretProblem(randomBytes(24).toString("base64"))).toBeUndefined();
      expect(secretProblem(randomBytes(32).toString("base64url"))).toBeUndefined();
    }
  });
});
