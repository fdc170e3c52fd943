import { Cluster, Redis, type RedisOptions } from "ioredis";

export type RedisClient = Redis | Cluster;

/**
 * One URL gives a single Redis; several comma-separated URLs are seed nodes of a Redis Cluster
 * (docs/contract.md §6). The store works on either because each script stays within one hash tag.
 */
export function createRedisClient(urls: string, options: RedisOptions = {}): RedisClient {
  const list = urls
    .split(",")
    .map((u) => u.trim())
    .filter((u) => u.length > 0);
  const [first] = list;
  if (first === undefined) throw new TypeError("REDIS_URL must name at least one Redis URL");
  if (list.length === 1) return new Redis(first, options);
  const nodes = list.map((u) => {
    const url = new URL(u);
    return { host: url.hostname, port: Number(url.port || 6379) };
  });
  const { password, username } = new URL(first);
  return new Cluster(nodes, {
    redisOptions: { ...options, password: password || undefined, username: username || undefined },
    enableOfflineQueue: options.enableOfflineQueue ?? true,
  });
}
