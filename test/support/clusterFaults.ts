import type { RedisClusterHandle } from "@vu/infra";
import { createKeyspace } from "@vu/store";
import { Redis } from "ioredis";

/**
 * Empties every master of `cluster` but the one holding the view's log hash of `prefix` (a
 * restart without persistence, a failover to an empty replica): the checkpoints stay, the sums
 * and the shards' write counts on the other nodes go. Returns the ports of the emptied masters.
 */
export async function emptyMastersButTheLogs(cluster: RedisClusterHandle, prefix: string): Promise<number[]> {
  const logKey = createKeyspace({ prefix }).log(1);
  const emptied: number[] = [];
  for (const node of cluster.nodes) {
    const direct = new Redis({ host: node.host, port: node.port, lazyConnect: true });
    await direct.connect();
    // A master that does not own the key's slot answers MOVED.
    const holdsLog = await direct.exists(logKey).then(
      (n) => n === 1,
      () => false,
    );
    if (!holdsLog) {
      await direct.flushall();
      emptied.push(node.port);
    }
    await direct.quit();
  }
  return emptied;
}
