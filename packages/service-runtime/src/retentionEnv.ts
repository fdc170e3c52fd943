import { DAY_MS, DEFAULT_RETENTION, type Retention, retentionProblems, withQuarters } from "@vu/time-buckets";
import type { z } from "zod";
import { envRetentionDays } from "./envFields";

/**
 * Per-tier retention, shared by the worker (which sets expiries) and the API (which plans around
 * what is kept): both must read the same variables the same way.
 */
const defaultDays = (ms: number | null) => (ms === null ? null : ms / DAY_MS);

export const retentionEnvShape = {
  RETENTION_MINUTE_DAYS: envRetentionDays(defaultDays(DEFAULT_RETENTION.minute)),
  RETENTION_HOUR_DAYS: envRetentionDays(defaultDays(DEFAULT_RETENTION.hour)),
  RETENTION_DAY_DAYS: envRetentionDays(defaultDays(DEFAULT_RETENTION.day)),
  RETENTION_WEEK_DAYS: envRetentionDays(defaultDays(DEFAULT_RETENTION.week)),
  RETENTION_MONTH_DAYS: envRetentionDays(defaultDays(DEFAULT_RETENTION.month)),
};

type RetentionEnv = { [K in keyof typeof retentionEnvShape]: number | null };

export function retentionFromEnv(env: RetentionEnv): Retention {
  const ms = (days: number | null) => (days === null ? null : days * DAY_MS);
  // Quarter hours are split out of the hour blocks (store/quarterCells.ts): they share hours' retention.
  return withQuarters({
    minute: ms(env.RETENTION_MINUTE_DAYS),
    hour: ms(env.RETENTION_HOUR_DAYS),
    day: ms(env.RETENTION_DAY_DAYS),
    week: ms(env.RETENTION_WEEK_DAYS),
    month: ms(env.RETENTION_MONTH_DAYS),
  });
}

/** Cross-field rule for a schema that spreads `retentionEnvShape`. */
export function checkRetention(env: RetentionEnv, ctx: z.RefinementCtx): void {
  for (const message of retentionProblems(retentionFromEnv(env))) {
    ctx.addIssue({ code: "custom", path: ["RETENTION_MINUTE_DAYS"], message });
  }
}
