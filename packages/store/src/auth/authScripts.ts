import type { Result } from "ioredis";
import type { ScriptSpec } from "../redis/scriptLoader";

const dir = new URL("./lua/", import.meta.url);

/** Restoring a token from its durable record, and counting a client's requests. */
export const AUTH_SCRIPTS = {
  restoreToken: { dir, file: "restoreToken-1", command: "vuRestoreToken", numberOfKeys: 1 },
  countHit: { dir, file: "countHit-1", command: "vuCountHit", numberOfKeys: 1 },
} as const satisfies Record<string, ScriptSpec>;

declare module "ioredis" {
  interface RedisCommander<Context> {
    /** restoreToken-1.lua: 1 written, -1 another organization's token, -2 another token id. */
    vuRestoreToken(
      key: string,
      id: string,
      org: string,
      label: string,
      createdAt: string,
      revokedAt: string,
    ): Result<1 | -1 | -2, Context>;
    /** countHit-1.lua: `[hits in the window, ms until it ends]`. */
    vuCountHit(key: string, windowMs: number): Result<[number, number], Context>;
  }
}
