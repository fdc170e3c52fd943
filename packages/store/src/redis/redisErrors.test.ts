import { ReplyError } from "ioredis";
import { describe, expect, it } from "vitest";
import { isTransientRedisError, refusalCode } from "./redisErrors";

describe("isTransientRedisError", () => {
  it.each([
    "LOADING Redis is loading the dataset in memory",
    "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.",
    "OOM command not allowed when used memory > 'maxmemory'. script: 1234, on @user_script:12.",
    "TRYAGAIN Multiple keys request during rehashing of slot",
    "CLUSTERDOWN The cluster is down",
    "MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.",
    "READONLY You can't write against a read only replica.",
    "MISCONF Redis is configured to save RDB snapshots, but it's currently unable to persist to disk.",
    "NOREPLICAS Not enough good replicas to write.",
    "NOAUTH Authentication required.",
    "NOPERM User worker has no permissions to run the 'evalsha' command",
    "WRONGPASS invalid username-password pair or user is disabled.",
  ])("retries %s", (message) => {
    expect(isTransientRedisError(new ReplyError(message))).toBe(true);
  });

  it.each([
    "ERR user_script:12: batch truncated in the cells of block b:m:202611201000:c script: 12ab",
    "WRONGTYPE Operation against a key holding the wrong kind of value script: 12ab, on @user_script:40.",
    "ERR Error running script (call to f_12ab): @user_script:5: bad argument #2 to 'unpack'",
  ])("does not retry %s", (message) => {
    expect(isTransientRedisError(new ReplyError(message))).toBe(false);
  });

  it("retries what is not a reply: a lost connection, a timeout", () => {
    expect(isTransientRedisError(new Error("Connection is closed."))).toBe(true);
    expect(isTransientRedisError(new Error("Command timed out"))).toBe(true);
  });
});

describe("refusalCode", () => {
  it("names an operational refusal, also as the cause of the store's error, and nothing else", () => {
    const misconf = new ReplyError("MISCONF Redis is configured to save RDB snapshots, but it's unable to");
    expect(refusalCode(misconf)).toBe("MISCONF");
    expect(refusalCode(new Error("applying a batch to Redis failed", { cause: misconf }))).toBe("MISCONF");
    expect(refusalCode(new ReplyError("LOADING Redis is loading the dataset in memory"))).toBeUndefined();
    expect(refusalCode(new Error("Connection is closed."))).toBeUndefined();
  });
});
