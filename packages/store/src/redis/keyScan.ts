import { Cluster } from "ioredis";
import type { RedisClient } from "./redisClient";

/**
 * Every key matching `pattern`, a SCAN page at a time, on every master of a cluster (a SCAN sees
 * one node's keys only), with the node that holds them. SCAN's guarantees hold per node: a key
 * there for the whole scan is returned at least once (possibly twice), a key added or removed
 * meanwhile may or may not be; a key a cluster moves to a node already scanned is missed. Never
 * KEYS: each page is one short command, so a large keyspace never blocks Redis.
 */
export async function* scanKeyPages(
  redis: RedisClient,
  pattern: string,
  count = 10_000,
): AsyncGenerator<{ keys: string[]; node: RedisClient }> {
  const nodes = redis instanceof Cluster ? redis.nodes("master") : [redis];
  for (const node of nodes) {
    let cursor = "0";
    do {
      const [next, keys] = (await node.call("SCAN", cursor, "MATCH", pattern, "COUNT", String(count))) as [
        string,
        string[],
      ];
      cursor = next;
      if (keys.length > 0) yield { keys, node };
    } while (cursor !== "0");
  }
}

/**
 * Every key matching `pattern`, a SCAN page at a time, on every master of a cluster (a SCAN sees
 * one node's keys only). For tools that measure or clean up the store, never a request path.
 */
export async function scanKeys(
  redis: RedisClient,
  pattern: string,
  onPage: (keys: string[], node: RedisClient) => Promise<void> | void,
): Promise<void> {
  for await (const { keys, node } of scanKeyPages(redis, pattern)) await onPage(keys, node);
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
