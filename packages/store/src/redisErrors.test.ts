import { ReplyError } from "ioredis";
import { describe, expect, it } from "vitest";
import { isTransientRedisError } from "./redisErrors";

describe("isTransientRedisError", () => {
  it.each([
    "LOADING Redis is loading the dataset in memory",
    "BUSY Redis is busy running a script. You can only call SCRIPT KILL or SHUTDOWN NOSAVE.",
    "OOM command not allowed when used memory > 'maxmemory'. script: 1234, on @user_script:12.",
    "TRYAGAIN Multiple keys request during rehashing of slot",
    "CLUSTERDOWN The cluster is down",
    "MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.",
    "READONLY You can't write against a read only replica.",
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
