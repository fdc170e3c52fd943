import { readFileSync } from "node:fs";
import type { Cluster, Redis } from "ioredis";

/**
 * Each room keeps its Lua scripts in its own `lua/` folder, one top-level script per file named
 * `verbNoun-<numberOfKeys>.lua` (`verbNoun.lua` when the caller passes how many keys it sends),
 * with shared local functions in `lua/includes/` pulled in by `--- @include "includes/<name>"`.
 * A script that says `--- @constants` gets there the constants it shares with TypeScript, as
 * `local` declarations its spec generates from their TypeScript declarations: no script writes
 * one out.
 * A command name is the client's alone: Redis runs a script by the SHA1 of its text (EVALSHA),
 * so two deployed store versions sharing one Redis never run each other's scripts.
 */
export interface ScriptSpec {
  /** The room's `lua/` folder: `new URL("./lua/", import.meta.url)` in the module declaring the spec. */
  readonly dir: URL;
  readonly file: string;
  readonly command: string;
  /** Undefined: the caller passes the number of keys first. */
  readonly numberOfKeys?: number;
  /** What `--- @constants` becomes; a script that says it without a spec that has them fails to load. */
  readonly constants?: () => string;
}

const INCLUDE = /^--- @include "([\w/]+)"$/gm;
const CONSTANTS = /^--- @constants$/m;

/** The script's text as Redis runs it: includes inlined, constants generated. */
export function loadScript(spec: ScriptSpec): string {
  const read = (path: string) => readFileSync(new URL(`${path}.lua`, spec.dir), "utf8");
  return read(spec.file)
    .replace(CONSTANTS, () => {
      if (spec.constants === undefined) throw new Error(`${spec.file}.lua asks for constants its spec lacks`);
      return spec.constants();
    })
    .replace(INCLUDE, (_line, include: string) => read(include).trimEnd());
}

const defined = new WeakMap<Redis | Cluster, Set<string>>();

/**
 * Defines the scripts on a client, each once. ioredis sends EVALSHA and, when Redis answers
 * NOSCRIPT (a restart without persistence, a failover, SCRIPT FLUSH), the script itself on that
 * connection, so on Redis Cluster the node that owns the key reloads it.
 */
export function defineScripts(redis: Redis | Cluster, specs: Readonly<Record<string, ScriptSpec>>): void {
  const commands = defined.get(redis) ?? new Set<string>();
  defined.set(redis, commands);
  for (const spec of Object.values(specs)) {
    if (commands.has(spec.command)) continue;
    const lua = loadScript(spec);
    redis.defineCommand(
      spec.command,
      spec.numberOfKeys === undefined ? { lua } : { numberOfKeys: spec.numberOfKeys, lua },
    );
    commands.add(spec.command);
  }
}
