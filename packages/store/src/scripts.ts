import { readFileSync } from "node:fs";
import type { Cluster, Redis, Result } from "ioredis";
import type { APPLY_REPLY } from "./applyCall";
import { luaConstants } from "./luaConstants";

/**
 * Lua scripts live in ./lua, one top-level script per file named `verbNoun-<numberOfKeys>.lua`
 * (`verbNoun.lua` when the caller passes how many keys it sends), with shared local functions in
 * ./lua/includes pulled in by `--- @include "includes/<name>"`. A script that says `--- @constants`
 * gets there the constants it shares with TypeScript (luaConstants.ts), as `local` declarations
 * generated from their TypeScript declarations: no script writes one out.
 * A command name is the client's alone: Redis runs a script by the SHA1 of its text (EVALSHA),
 * so two deployed store versions sharing one Redis never run each other's scripts.
 */
const INCLUDE = /^--- @include "([\w/]+)"$/gm;
const CONSTANTS = /^--- @constants$/m;

export function loadScript(name: string): string {
  const read = (path: string) => readFileSync(new URL(`./lua/${path}.lua`, import.meta.url), "utf8");
  return read(name)
    .replace(CONSTANTS, () => luaConstants())
    .replace(INCLUDE, (_line, include: string) => read(include).trimEnd());
}

interface ScriptSpec {
  file: string;
  command: string;
  /** Undefined: the caller passes the number of keys first. */
  numberOfKeys?: number;
}

export const SCRIPTS = {
  applyBatches: { file: "applyBatches", command: "vuApplyBatches" },
  countHit: { file: "countHit-1", command: "vuCountHit", numberOfKeys: 1 },
  openEpoch: { file: "openEpoch-1", command: "vuOpenEpoch", numberOfKeys: 1 },
  advanceCheckpoint: { file: "advanceCheckpoint-1", command: "vuAdvanceCheckpoint", numberOfKeys: 1 },
  restoreToken: { file: "restoreToken-1", command: "vuRestoreToken", numberOfKeys: 1 },
  claimPartition: { file: "claimPartition-1", command: "vuClaimPartition", numberOfKeys: 1 },
} as const satisfies Record<string, ScriptSpec>;

type Reply = typeof APPLY_REPLY;

/**
 * One organization's reply from applyBatches: `[ok, counted, layout]`, `[duplicates,
 * duplicateIndexes]`, `[replayed, appliedThroughOffset]` or `[layoutMoved, layout]` (APPLY_REPLY;
 * see the script header).
 */
export type OrganizationReply =
  | [Reply["ok"], number, string]
  | [Reply["duplicates"], number[]]
  | [Reply["replayed"], string]
  | [Reply["layoutMoved"], string];

/**
 * applyBatches' reply: `[checkpointMoved, checkpointInRedis]`, `[shardBehind, shardWriteCount]` (a
 * cluster node lost writes), `[fenced, shardFence]` (a later writer claimed the partition), or
 * `[ok, replies, shardWriteCount, token]` with one reply per organization.
 */
export type ApplyBatchesReply =
  | [Reply["checkpointMoved"], string]
  | [Reply["shardBehind"], number]
  | [Reply["fenced"], string]
  | [Reply["ok"], OrganizationReply[], number, string];

declare module "ioredis" {
  interface RedisCommander<Context> {
    /**
     * The number of keys, the keys, then the arguments (applyCall.ts lays both out; see the
     * script header). ioredis flattens arrays: no spread of thousands.
     */
    vuApplyBatches(
      ...args: Array<string | number | Buffer | Array<string | Buffer>>
    ): Result<ApplyBatchesReply, Context>;
    /** openEpoch-1.lua: `[1, epoch]` opened, `[0, epoch]` another was opened first. */
    vuOpenEpoch(
      key: string,
      epoch: string,
      expected: string,
      state: string,
      reason: string,
      reset: string,
      ...targets: string[]
    ): Result<[number, string], Context>;
    /** advanceCheckpoint-1.lua: `[1, state]`, `[-1, epoch]` or `[-2, checkpoint]`. */
    vuAdvanceCheckpoint(
      key: string,
      epoch: string,
      partition: string,
      expected: string,
      next: string,
      asOf: string,
      ...shardWrites: string[]
    ): Result<[number, string], Context>;
    /** restoreToken-1.lua: 1 written, -1 another organization's token, -2 another token id. */
    vuRestoreToken(
      key: string,
      id: string,
      org: string,
      label: string,
      createdAt: string,
      revokedAt: string,
    ): Result<1 | -1 | -2, Context>;
    /** claimPartition-1.lua: the caller's fence, higher than any before it and than `floor`. */
    vuClaimPartition(key: string, partition: string, floor: string): Result<string, Context>;
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
    const lua = loadScript(spec.file);
    redis.defineCommand(
      spec.command,
      "numberOfKeys" in spec ? { numberOfKeys: spec.numberOfKeys, lua } : { lua },
    );
  }
  registered.add(redis);
}
