import { getPriority, setPriority } from "node:os";
import type { RedisClient } from "@vu/store";
import { log } from "./log";
import { redisPid } from "./redisInfo";

/**
 * Runs `work` with the local Redis ahead of the other processes in the scheduler, as a deployment
 * gives Redis a core of its own: on this 2-core machine the API's processes, the large-read
 * process, the bench and Redis share both cores, and the latency monitor times a command by the
 * wall clock, so a command during which Redis waited for a core shows as a long one. Returns the
 * nice value Redis ran at (its own, unchanged, when it may not be raised: not root). Like the
 * bench's CPU figures, it takes Redis to run on this machine.
 */
export async function withRedisAhead<T>(
  redis: RedisClient,
  nice: number,
  work: () => Promise<T>,
): Promise<{ result: T; redisNice: number | undefined }> {
  const pid = await redisPid(redis);
  const was = tryGetPriority(pid);
  const raised = was !== undefined && trySetPriority(pid, nice);
  if (!raised) log(`  Redis' priority left as it is (${was ?? "unknown"}): it could not be raised`);
  try {
    return { result: await work(), redisNice: raised ? nice : was };
  } finally {
    if (raised && was !== undefined) trySetPriority(pid, was);
  }
}

function tryGetPriority(pid: number): number | undefined {
  try {
    return getPriority(pid);
  } catch {
    return undefined;
  }
}

function trySetPriority(pid: number, nice: number): boolean {
  try {
    setPriority(pid, nice);
    return true;
  } catch {
    return false;
  }
}
