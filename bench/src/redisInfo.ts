import { waitFor } from "@vu/infra";
import type { RedisClient } from "@vu/store";

/** `INFO <section>` as a map of its `key:value` lines. */
export async function redisInfo(redis: RedisClient, section: string): Promise<Map<string, string>> {
  const text = (await redis.call("INFO", section)) as string;
  const fields = new Map<string, string>();
  for (const line of text.split("\r\n")) {
    const at = line.indexOf(":");
    if (at > 0 && !line.startsWith("#")) fields.set(line.slice(0, at), line.slice(at + 1));
  }
  return fields;
}

export async function usedMemory(redis: RedisClient): Promise<number> {
  return Number((await redisInfo(redis, "memory")).get("used_memory") ?? 0);
}

/**
 * Waits until Redis has freed what earlier UNLINKs handed to its background thread, so a
 * `used_memory` taken now does not shrink under the next measurement (a previous data set's keys).
 */
export async function lazyFreeDone(redis: RedisClient): Promise<void> {
  await waitFor(
    async () => Number((await redisInfo(redis, "memory")).get("lazyfree_pending_objects") ?? 0) === 0,
    { timeoutMs: 300_000, intervalMs: 100, message: "Redis to free the unlinked keys" },
  );
}

export interface CommandStat {
  calls: number;
  usec: number;
}

/** Per-command call counts and server time (commands run from Lua scripts are counted too). */
export async function commandStats(redis: RedisClient): Promise<Map<string, CommandStat>> {
  const stats = new Map<string, CommandStat>();
  for (const [key, value] of await redisInfo(redis, "commandstats")) {
    const calls = /calls=(\d+)/.exec(value)?.[1];
    const usec = /usec=(\d+)/.exec(value)?.[1];
    stats.set(key.replace(/^cmdstat_/, ""), { calls: Number(calls ?? 0), usec: Number(usec ?? 0) });
  }
  return stats;
}

/** What each command cost between two snapshots, the most expensive first. */
export function commandStatsDelta(
  before: Map<string, CommandStat>,
  after: Map<string, CommandStat>,
): Array<{ command: string } & CommandStat> {
  return [...after]
    .map(([command, s]) => ({
      command,
      calls: s.calls - (before.get(command)?.calls ?? 0),
      usec: s.usec - (before.get(command)?.usec ?? 0),
    }))
    .filter((s) => s.calls > 0)
    .sort((a, b) => b.usec - a.usec);
}

export async function redisPid(redis: RedisClient): Promise<number> {
  return Number((await redisInfo(redis, "server")).get("process_id") ?? 0);
}

export async function redisVersion(redis: RedisClient): Promise<string> {
  return (await redisInfo(redis, "server")).get("redis_version") ?? "unknown";
}

/** Bytes Redis has sent to all clients since it started (INFO stats). */
export async function netOutputBytes(redis: RedisClient): Promise<number> {
  return Number((await redisInfo(redis, "stats")).get("total_net_output_bytes") ?? 0);
}
