import type { Result } from "ioredis";
import type { ScriptSpec } from "../redis/scriptLoader";

const dir = new URL("./lua/", import.meta.url);

/** The log hash's scripts: opening an epoch, moving a checkpoint, claiming a partition. */
export const LOG_SCRIPTS = {
  openEpoch: { dir, file: "openEpoch-1", command: "vuOpenEpoch", numberOfKeys: 1 },
  advanceCheckpoint: { dir, file: "advanceCheckpoint-1", command: "vuAdvanceCheckpoint", numberOfKeys: 1 },
  claimPartition: { dir, file: "claimPartition-1", command: "vuClaimPartition", numberOfKeys: 1 },
} as const satisfies Record<string, ScriptSpec>;

declare module "ioredis" {
  interface RedisCommander<Context> {
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
    /** claimPartition-1.lua: the caller's fence, higher than any before it and than `floor`. */
    vuClaimPartition(key: string, partition: string, floor: string): Result<string, Context>;
  }
}
