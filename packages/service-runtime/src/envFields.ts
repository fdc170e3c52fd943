import { z } from "zod";

/** Explicit string → value transforms for environment variables (no silent coercion). */
export const envInt = (fallback: number, bounds: { min?: number; max?: number } = {}) =>
  z
    .string()
    .regex(/^\d+$/, "must be a whole number")
    .transform(Number)
    .pipe(
      z
        .int()
        .min(bounds.min ?? 0)
        .max(bounds.max ?? Number.MAX_SAFE_INTEGER),
    )
    .default(fallback);

/** Days as a positive integer, or `0` / `forever` for "keep forever" (null). */
export const envRetentionDays = (fallback: number | null) =>
  z
    .string()
    .regex(/^(\d+|forever)$/, "must be a number of days or 'forever'")
    .transform((v) => (v === "forever" || v === "0" ? null : Number(v)))
    .default(fallback === null ? null : fallback);

export const envList = (fallback: string) =>
  z
    .string()
    .default(fallback)
    .transform((v) =>
      v
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s.length > 0),
    )
    .pipe(z.array(z.string()).min(1, "must list at least one value"));

export const envLogLevel = z
  .enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"])
  .default("info");
