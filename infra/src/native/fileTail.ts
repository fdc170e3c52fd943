import { existsSync, readFileSync } from "node:fs";

/** The last lines of a log file, for error messages when a server fails to come up. */
export function fileTail(path: string, lines = 40): string {
  if (!existsSync(path)) return `(no log at ${path})`;
  const text = readFileSync(path, "utf8").trimEnd();
  return text.split("\n").slice(-lines).join("\n");
}
