import { z } from "zod";

/**
 * Where the store lives, for every process that opens it (worker, API, tokens CLI, rebuild): one
 * URL (or comma-separated Redis Cluster seed URLs) and the first part of every key.
 */
export const redisEnvShape = {
  REDIS_URL: z.string().min(1).default("redis://127.0.0.1:6379"),
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/, "must be letters, digits, _ or -")
    .default("vu"),
};

/** Just the Redis variables, for tools that need nothing else (the tokens CLI). */
export const redisEnvSchema = z.object(redisEnvShape);
