import { checkRetention, envInt, envLogLevel, parseEnv, retentionEnvShape } from "@vu/service-runtime";
import { z } from "zod";

export const apiEnvSchema = z
  .object({
    PORT: envInt(8080, { max: 65_535 }),
    REDIS_URL: z.string().min(1).default("redis://127.0.0.1:6379"),
    REDIS_PREFIX: z
      .string()
      .regex(/^[A-Za-z0-9_-]+$/, "must be letters, digits, _ or -")
      .default("vu"),
    RATE_LIMIT_PER_MINUTE: envInt(600, { min: 1 }),
    /** Token lookups are cached this long: a revoked token is refused within it (≤ 5 s). */
    TOKEN_CACHE_MS: envInt(2_000, { max: 5_000 }),
    LOG_LEVEL: envLogLevel,
    ...retentionEnvShape,
  })
  .superRefine(checkRetention);

export type ApiEnv = z.output<typeof apiEnvSchema>;

export function loadApiEnv(env: Record<string, string | undefined> = process.env): Readonly<ApiEnv> {
  return parseEnv(apiEnvSchema, env);
}
