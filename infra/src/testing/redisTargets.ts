import { startRedisCluster } from "../native/redisCluster";
import { DEFAULT_REDIS_URL } from "../native/redisServer";

export interface StartedRedisTarget {
  /** One URL for a single Redis, comma-separated node URLs for a cluster (what REDIS_URL takes). */
  url: string;
  stop(): Promise<void>;
}

export interface RedisTarget {
  name: string;
  start(): Promise<StartedRedisTarget>;
}

/**
 * The Redis deployments every store-facing test runs against, for `describe.each(redisTargets())`:
 * the stack's single Redis (shared, so stop() leaves it running) and a private 3-master cluster, which
 * catches any script whose keys span hash slots.
 */
export function redisTargets(): RedisTarget[] {
  return [
    {
      name: "a single Redis",
      start: async () => ({ url: process.env.REDIS_URL ?? DEFAULT_REDIS_URL, stop: async () => {} }),
    },
    {
      name: "a 3-node Redis Cluster",
      start: async () => {
        const cluster = await startRedisCluster();
        return { url: cluster.url, stop: cluster.stop };
      },
    },
  ];
}
