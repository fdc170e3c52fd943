import { z } from "zod";
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

/** How many parameters a query holds, each value of a repeated one counted. */
function parameterCount(query: Record<string, unknown>): number {
  let count = 0;
  for (const value of Object.values(query)) count += Array.isArray(value) ? value.length : 1;
  return count;
}

/**
 * Validates a query string with a route's schema (strict: an unknown parameter, such as a typo,
 * is a 400 rather than silently other data). A parameter given twice is refused too: which of the
 * two was meant cannot be known. More parameters than the schema has names is refused at once
 * (docs/contract.md §3), with one bounded message instead of one entry per surplus parameter.
 */
export function parseQuery<Schema extends z.ZodType>(schema: Schema, query: unknown): z.output<Schema> {
  const given = (query ?? {}) as Record<string, unknown>;
  const known = schema instanceof z.ZodObject ? Object.keys(schema.shape).length : Number.POSITIVE_INFINITY;
  const count = parameterCount(given);
  if (count > known) {
    throw ProblemError.invalidParameter(
      "(query)",
      `has ${count} parameters; this operation reads at most ${known}, each once`,
    );
  }
  const repeated = Object.entries(given)
    .filter(([, value]) => Array.isArray(value))
    .map(([parameter]) => ({ parameter, message: "must be given at most once" }));
  if (repeated.length > 0) throw ProblemError.badRequest(repeated);
  const parsed = schema.safeParse(given);
  if (!parsed.success) throw ProblemError.badRequest(parameterProblems(parsed.error.issues));
  return parsed.data;
}
