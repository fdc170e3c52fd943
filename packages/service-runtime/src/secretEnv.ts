import { z } from "zod";

/** The shortest secret a service accepts (a key for HMAC-SHA256 wants at least 256 bits). */
export const SECRET_MIN_LENGTH = 32;

const HOW = `a random secret of at least ${SECRET_MIN_LENGTH} characters, e.g. from \`openssl rand -hex 32\``;
/** Values people write while meaning "fill this in"; long enough never to occur in a random key. */
const PLACEHOLDER = /change.?me|placeholder|example|replace.?me|your.?(key|secret)|secret.?key|insecure/i;

/** Why `value` cannot be a secret (too short, or a placeholder), or undefined when it can. */
export function secretProblem(value: string): string | undefined {
  if (value.length < SECRET_MIN_LENGTH) {
    return `must be at least ${SECRET_MIN_LENGTH} characters (it has ${value.length}): ${HOW}`;
  }
  // A random key of 32 characters has more than 5 distinct ones but by chance of about 1e-13.
  if (PLACEHOLDER.test(value) || new Set(value).size <= 5) {
    return `looks like a placeholder, not a random secret: ${HOW}`;
  }
  return undefined;
}

function checkSecret(value: string, ctx: z.RefinementCtx): void {
  const problem = secretProblem(value);
  if (problem !== undefined) ctx.addIssue({ code: "custom", message: problem });
}

/**
 * A required secret (a signing key): missing, shorter than 32 characters or a placeholder stops the
 * process at start-up, with a message naming the variable. There is no default, so no deployment
 * runs with a key everyone knows.
 */
export const envSecret = () =>
  z
    .string({ error: (issue) => (issue.input === undefined ? `is required: ${HOW}` : undefined) })
    .superRefine(checkSecret);

/** Optional comma-separated secrets (keys kept for verification while rotating), each checked as one. */
export const envSecretList = () =>
  z
    .string()
    .default("")
    .transform((v) =>
      v
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s.length > 0),
    )
    .pipe(z.array(z.string().superRefine(checkSecret)));

/**
 * The token records' signing keys, for every process that writes or reads the tokens topic (the
 * tokens CLI signs, the ingest worker verifies): the key new records are signed with, and keys
 * retired by a rotation whose records are still accepted (@vu/events `createTokenRecordSigner`).
 */
export const tokenSigningEnvShape = {
  TOKENS_SIGNING_KEY: envSecret(),
  TOKENS_SIGNING_KEYS_PREVIOUS: envSecretList(),
};
