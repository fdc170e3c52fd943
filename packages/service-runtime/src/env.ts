import type { z } from "zod";

/** Thrown at start-up when the environment does not satisfy a service's schema. */
export class ConfigError extends Error {
  constructor(readonly problems: readonly string[]) {
    super(`invalid configuration:\n  ${problems.join("\n  ")}`);
    this.name = "ConfigError";
  }
}

/**
 * Parses the environment once with a service's zod schema and freezes the result; a failure
 * names each offending variable and what it must be.
 */
export function parseEnv<Schema extends z.ZodType>(
  schema: Schema,
  env: Record<string, string | undefined> = process.env,
): Readonly<z.output<Schema>> {
  const result = schema.safeParse(env);
  if (!result.success) {
    throw new ConfigError(
      result.error.issues.map((i) => `${i.path.join(".") || "(environment)"}: ${i.message}`),
    );
  }
  return Object.freeze(result.data);
}
