import { Cluster } from "ioredis";
import type { RedisClient } from "./redisClient";

/**
 * Every key matching `pattern`, a SCAN page at a time, on every master of a cluster (a SCAN sees
 * one node's keys only). For tools that measure or clean up the store, never a request path.
 */
export async function scanKeys(
  redis: RedisClient,
  pattern: string,
  onPage: (keys: string[], node: RedisClient) => Promise<void> | void,
): Promise<void> {
  const nodes = redis instanceof Cluster ? redis.nodes("master") : [redis];
  for (const node of nodes) {
    let cursor = "0";
    do {
      const [next, keys] = (await node.call("SCAN", cursor, "MATCH", pattern, "COUNT", "10000")) as [
        string,
        string[],
      ];
      cursor = next;
      if (keys.length > 0) await onPage(keys, node);
    } while (cursor !== "0");
  }
}

/** Unlinks every key matching `pattern` (freed in the background by Redis); resolves with the count. */
export async function unlinkKeys(redis: RedisClient, pattern: string): Promise<number> {
  let unlinked = 0;
  await scanKeys(redis, pattern, async (keys, node) => {
    // One key per command: in a cluster, the keys of one page live in many slots.
    const pipeline = node.pipeline();
    for (const key of keys) pipeline.unlink(key);
    for (const [error, count] of (await pipeline.exec()) ?? []) {
      if (error) throw error;
      unlinked += Number(count);
    }
  });
  return unlinked;
}
