import { readFileSync } from "node:fs";
import type { Cluster, Redis, Result } from "ioredis";

/**
 * Lua scripts live in ./lua, one top-level script per file named `verbNoun-<numberOfKeys>.lua`,
 * with shared local functions in ./lua/includes pulled in by `--- @include "includes/<name>"`.
 * A command name is the client's alone: Redis runs a script by the SHA1 of its text (EVALSHA),
 * so two deployed store versions sharing one Redis never run each other's scripts.
 */
const INCLUDE = /^--- @include "([\w/]+)"$/gm;

export function loadScript(name: string): string {
  const read = (path: string) => readFileSync(new URL(`./lua/${path}.lua`, import.meta.url), "utf8");
  return read(name).replace(INCLUDE, (_line, include: string) => read(include).trimEnd());
}

interface ScriptSpec {
  file: string;
  command: string;
  numberOfKeys: number;
}

export const SCRIPTS = {
  applyBatch: { file: "applyBatch-8", command: "vuApplyBatch", numberOfKeys: 8 },
  countHit: { file: "countHit-1", command: "vuCountHit", numberOfKeys: 1 },
  openEpoch: { file: "openEpoch-1", command: "vuOpenEpoch", numberOfKeys: 1 },
  advanceCheckpoint: { file: "advanceCheckpoint-1", command: "vuAdvanceCheckpoint", numberOfKeys: 1 },
} as const satisfies Record<string, ScriptSpec>;

/**
 * applyBatch's reply: `[1, counted, layout]`, `[-1, duplicateIndexes]`, `[-2, appliedThroughOffset]`,
 * `[-3, checkpointInRedis]` or `[-4, layout]` (see the script header).
 */
export type ApplyBatchReply =
  | [1, number, string]
  | [-1, number[]]
  | [-2, string]
  | [-3, string]
  | [-4, string];

declare module "ioredis" {
  interface RedisCommander<Context> {
    /** The script's ARGV goes in one array (ioredis flattens it): no spread of thousands of arguments. */
    vuApplyBatch(
      ...args: [
        ...keys: string[],
        dedupeWindowMs: string,
        batch: Buffer,
        firstRecordedAtMs: string,
        lastRecordedAtMs: string,
        offsetField: string,
        firstOffset: string,
        throughOffset: string,
        checkpointField: string,
        expectedCheckpoint: string,
        layout: string,
        layoutRule: string,
      ]
    ): Result<ApplyBatchReply, Context>;
    /** openEpoch-1.lua: `[1, epoch]` opened, `[0, epoch]` another was opened first. */
    vuOpenEpoch(
      key: string,
      epoch: string,
      expected: string,
      state: string,
      reason: string,
      ...targets: string[]
    ): Result<[number, string], Context>;
    /** advanceCheckpoint-1.lua: `[1, state]`, `[-1, epoch]` or `[-2, checkpoint]`. */
    vuAdvanceCheckpoint(
      key: string,
      epoch: string,
      partition: string,
      expected: string,
      next: string,
    ): Result<[number, string], Context>;
    /** countHit-1.lua: `[hits in the window, ms until it ends]`. */
    vuCountHit(key: string, windowMs: number): Result<[number, number], Context>;
  }
}

const registered = new WeakSet<Redis | Cluster>();

/**
 * Defines every store script on a client once. ioredis sends EVALSHA and, when Redis answers
 * NOSCRIPT (a restart without persistence, a failover, SCRIPT FLUSH), the script itself on that
 * connection, so on Redis Cluster the node that owns the key reloads it.
 */
export function registerScripts(redis: Redis | Cluster): void {
  if (registered.has(redis)) return;
  for (const spec of Object.values(SCRIPTS)) {
    redis.defineCommand(spec.command, { numberOfKeys: spec.numberOfKeys, lua: loadScript(spec.file) });
  }
  registered.add(redis);
}
