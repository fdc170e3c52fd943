import type { z } from "zod";
import { type ParameterProblem, ProblemError } from "./problemError";

/** Turns zod issues into the `errors` of a 400, one entry per offending parameter. */
export function parameterProblems(issues: readonly z.core.$ZodIssue[]): ParameterProblem[] {
  return issues.flatMap((issue): ParameterProblem[] => {
    if (issue.code === "unrecognized_keys") {
      return issue.keys.map((key) => ({ parameter: key, message: "unknown parameter" }));
    }
    const parameter = String(issue.path[0] ?? "(query)");
    return [{ parameter, message: issue.message }];
  });
}

/**
 * Validates a query string with a route's schema (strict: an unknown parameter, such as a typo,
 * is a 400 rather than silently other data). A parameter given twice is refused too: which of the
 * two was meant cannot be known.
 */
export function parseQuery<Schema extends z.ZodType>(schema: Schema, query: unknown): z.output<Schema> {
  const repeated = Object.entries((query ?? {}) as Record<string, unknown>)
    .filter(([, value]) => Array.isArray(value))
    .map(([parameter]) => ({ parameter, message: "must be given at most once" }));
  if (repeated.length > 0) throw ProblemError.badRequest(repeated);
  const parsed = schema.safeParse(query ?? {});
  if (!parsed.success) throw ProblemError.badRequest(parameterProblems(parsed.error.issues));
  return parsed.data;
}
