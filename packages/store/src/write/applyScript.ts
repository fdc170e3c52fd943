import type { Result } from "ioredis";
import type { ScriptSpec } from "../redis/scriptLoader";
import type { APPLY_REPLY } from "./applyCall";
import { luaConstants } from "./luaConstants";

/** The apply script (lua/applyBatches.lua), the one script that takes the generated constants. */
export const WRITE_SCRIPTS = {
  applyBatches: {
    dir: new URL("./lua/", import.meta.url),
    file: "applyBatches",
    command: "vuApplyBatches",
    constants: luaConstants,
  },
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
 * `[ok, replies, shardWriteCount, callId]` with one reply per organization.
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
  }
}
