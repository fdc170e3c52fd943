import { z } from "zod";
import { secretProblem } from "./secretEnv";

/**
 * A password in a Redis URL must be a secret (32 characters or more, no placeholder such as the
 * `change-me` compose once defaulted to): a service refuses to start with one that is not. A URL
 * without a password (a local Redis, the tests) is left alone; the password is never echoed.
 */
function checkRedisPasswords(value: string, ctx: z.RefinementCtx): void {
  for (const url of value.split(",").map((u) => u.trim())) {
    let password: string;
    try {
      password = decodeURIComponent(new URL(url).password);
    } catch {
      continue;
    }
    const problem = password === "" ? undefined : secretProblem(password);
    if (problem !== undefined)
      ctx.addIssue({ code: "custom", message: `the password of ${redact(url)} ${problem}` });
  }
}

/** The URL with its password replaced, for messages. */
function redact(url: string): string {
  const parsed = new URL(url);
  parsed.password = "***";
  return parsed.toString().replace(/\/$/, "");
}

/**
 * Where the store lives, for every process that opens it (worker, API, tokens CLI, rebuild): one
 * URL (or comma-separated Redis Cluster seed URLs) and the first part of every key. A URL may name
 * a Redis ACL user and its password (`redis://worker:<password>@redis:6379`).
 */
export const redisEnvShape = {
  REDIS_URL: z.string().min(1).superRefine(checkRedisPasswords).default("redis://127.0.0.1:6379"),
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, "must be letters, digits, _ or -")
    .default("vu"),
};

/** Just the Redis variables, for tools that need nothing else (the tokens CLI). */
export const redisEnvSchema = z.object(redisEnvShape);
