import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { stackDir } from "../paths";

/** A key this file makes: 32 random bytes in hex (TOKENS_SIGNING_KEY wants at least 32 characters). */
const MADE_KEY = /^[0-9a-f]{64}$/;

/** Where the native stack keeps its token signing key (in the gitignored stack directory). */
export function tokensSigningKeyFile(): string {
  return join(stackDir(), "tokens-signing-key");
}

/**
 * The key `npm start` signs token records with and gives the worker and the tokens CLI
 * (`TOKENS_SIGNING_KEY`): made once, at random, and kept beside the stack's Kafka data (readable
 * by its owner only), so that the tokens one run made are restored by the next. The stack's
 * directory going takes the key with the topic whose records it signed.
 */
export function stackTokensSigningKey(): { key: string; file: string; made: boolean } {
  const file = tokensSigningKeyFile();
  mkdirSync(stackDir(), { recursive: true });
  const key = randomBytes(32).toString("hex");
  try {
    // `wx`: two starts at once never overwrite each other's key.
    writeFileSync(file, `${key}\n`, { mode: 0o600, flag: "wx" });
    return { key, file, made: true };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const kept = readFileSync(file, "utf8").trim();
  if (!MADE_KEY.test(kept)) {
    throw new Error(
      `${file} does not hold a key this stack made (64 hex digits); delete it to make a new one`,
    );
  }
  return { key: kept, file, made: false };
}
