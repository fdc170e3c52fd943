// Reading infra/docker-compose.yml the way compose does, for the tests that hold it to the code:
// src/compose.test.ts (every service's environment, the logins, the ACLs) and
// src/composeKafka.int.test.ts (runs its Kafka scripts against a real broker).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { parse } from "yaml";
import { repoRoot } from "./paths";

export const COMPOSE_FILE = join(repoRoot, "infra", "docker-compose.yml");

export interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile: string };
  environment?: Record<string, string | number | boolean | null> | string[];
  ports?: Array<string | number>;
  entrypoint?: string | string[];
  command?: string | string[];
  profiles?: string[];
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: { test?: string | string[]; disable?: boolean };
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
}

export function readCompose(file = COMPOSE_FILE): ComposeFile {
  return parse(readFileSync(file, "utf8")) as ComposeFile;
}

/**
 * Compose's interpolation of `${NAME:-default}` (the default) and `${NAME:?message}` (`values`'
 * value; compose refuses to start without one), the forms this file uses, and of `$$` (a `$` left
 * for the container's shell).
 */
export function interpolate(text: string, values: Record<string, string>): string {
  return text.replace(
    /\$\$|\$\{([A-Z_][A-Z0-9_]*)(?::([-?])([^}]*))?\}/g,
    (all, name: string | undefined, form, rest: string) => {
      if (all === "$$") return "$";
      const value = values[name ?? ""];
      if (form === "-") return value ?? rest;
      if (value === undefined) throw new Error(`compose needs ${name}: ${rest}`);
      return value;
    },
  );
}

/** The variables a text requires (`${NAME:?...}`), each once, in order. */
export function requiredVariables(text: string): string[] {
  return [...new Set([...text.matchAll(/\$\{([A-Z_][A-Z0-9_]*):\?/g)].map(([, name]) => name as string))];
}

export function composeEnvironment(service: ComposeService): Record<string, string> {
  const env = service.environment ?? {};
  const entries = Array.isArray(env)
    ? env.map((line) => {
        const at = line.indexOf("=");
        return at < 0 ? [line, ""] : [line.slice(0, at), line.slice(at + 1)];
      })
    : Object.entries(env).map(([name, value]) => [name, value === null ? "" : String(value)]);
  return Object.fromEntries(entries);
}

/** The container side of a compose port mapping ("8080", "8080:8080", "127.0.0.1:80:8080/tcp"). */
export function containerPort(mapping: string | number): number {
  const last = String(mapping).split(":").at(-1) ?? "";
  return Number(last.split("/")[0]);
}

/**
 * The shell script a service runs (`entrypoint: [sh, -c]` with the script as its command, or
 * `command: [sh, -c, script]`), as the container's shell gets it: `$$` is `$` there. Compose's own
 * `${NAME...}` are left as written (the scripts use none).
 */
export function serviceScript(service: ComposeService): string {
  const entrypoint = [service.entrypoint ?? []].flat();
  const command = [service.command ?? []].flat();
  const argv = [...entrypoint, ...command];
  const at = argv.indexOf("-c");
  const script = at >= 0 ? argv[at + 1] : undefined;
  if (script === undefined) throw new Error("the service runs no `sh -c` or `bash -c` script");
  return script.replaceAll("$$", "$");
}

/** The body of the script's here-document that writes `path` (`cat > path <<EOF` … `EOF`), unindented. */
export function hereDocument(script: string, path: string): string {
  const lines = script.split("\n");
  const start = lines.findIndex((line) => new RegExp(`^\\s*cat > ${escapeRegExp(path)} <<EOF$`).test(line));
  if (start < 0) throw new Error(`no here-document writes ${path}`);
  const end = lines.findIndex((line, i) => i > start && line.trim() === "EOF");
  return lines
    .slice(start + 1, end)
    .map((line) => line.trim())
    .join("\n");
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");

/**
 * The commands of a bash script as argument lists, with its continuation lines joined and its
 * arrays (`name=(...)`, used as `"${name[@]}"`) spread: what each line runs, variables unexpanded.
 * Quotes are removed; enough for the scripts of this compose file, not a shell.
 */
export function scriptCommands(script: string): string[][] {
  const arrays = new Map<string, string[]>();
  const commands: string[][] = [];
  const joined = script.replace(/\\\n\s*/g, " ");
  for (const raw of joined.split("\n")) {
    const line = raw.trim();
    if (line === "" || line.startsWith("#")) continue;
    const words = (line.match(/"[^"]*"|'[^']*'|[^\s"']+/g) ?? []).map((word) =>
      word.replace(/^["']|["']$/g, ""),
    );
    const spread = words.flatMap((word) => {
      const name = /^\$\{(\w+)\[@\]\}$/.exec(word)?.[1];
      return name === undefined ? [word] : (arrays.get(name) ?? [word]);
    });
    const array = /^(\w+)=\((.*)$/.exec(spread[0] ?? "");
    if (array && spread.at(-1)?.endsWith(")")) {
      const items = [array[2] ?? "", ...spread.slice(1)].filter((w) => w !== "");
      const last = items.length - 1;
      items[last] = (items[last] ?? "").replace(/\)$/, "");
      arrays.set(
        array[1] as string,
        items.filter((w) => w !== ""),
      );
      continue;
    }
    commands.push(spread);
  }
  return commands;
}
