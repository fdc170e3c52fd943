import { Cluster, type Redis } from "ioredis";
import type { RedisClient } from "./redisClient";

export interface RedisHealth {
  /** False when Redis does not answer or is configured so that it could lose data. */
  ok: boolean;
  /** Why it is not ok, one sentence each, for /readyz and the logs. */
  reasons: string[];
  /** `used_memory` summed over the answering nodes (every master of a cluster); undefined if none answered. */
  usedMemoryBytes: number | undefined;
  /**
   * `used_memory / maxmemory` of the fullest answering node that has a `maxmemory` (every master of
   * a cluster: each node refuses writes on its own once full); undefined when none has a limit.
   */
  memoryFillRatio: number | undefined;
  /**
   * Each node's `maxmemory-policy`, from `CONFIG GET` or, where a managed Redis disables `CONFIG`,
   * from `INFO memory`; "unknown" where neither tells.
   */
  maxmemoryPolicies: string[];
}

export interface RedisHealthOptions {
  /** A node that has not answered within this is reported as not answering. */
  timeoutMs?: number;
}

/** The only safe policy: every other one evicts keys the store needs (dedupe tables, combination tables, blocks). */
const REQUIRED_POLICY = "noeviction";

interface NodeReport {
  name: string;
  error?: string;
  policy: string;
  usedMemoryBytes?: number;
  /** `maxmemory`; 0 is Redis' "no limit". */
  maxmemoryBytes?: number;
  /** Keys the node evicted since it started (`INFO stats`). */
  evictedKeys?: number;
}

function nodesOf(redis: RedisClient): Redis[] {
  return redis instanceof Cluster ? redis.nodes("master") : [redis];
}

function nodeName(node: Redis): string {
  return `${node.options.host ?? "?"}:${node.options.port ?? "?"}`;
}

/** `promise`, or a rejection naming `what` once `timeoutMs` have passed without an answer. */
export function withTimeout<T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function parsePolicy(reply: unknown): string {
  // CONFIG GET answers [name, value]; an empty array when the parameter is unknown.
  return Array.isArray(reply) && typeof reply[1] === "string" ? reply[1] : "unknown";
}

/** One field of an `INFO` reply ("name:value" lines), or undefined. */
function infoField(info: unknown, name: string): string | undefined {
  const match = typeof info === "string" ? new RegExp(`^${name}:([^\r\n]*)\r?$`, "m").exec(info) : null;
  return match?.[1];
}

function infoNumber(info: unknown, name: string): number | undefined {
  const value = infoField(info, name);
  return value === undefined || !/^\d+$/.test(value) ? undefined : Number(value);
}

/** PING, `CONFIG GET maxmemory-policy`, `INFO memory` and `INFO stats` of one node, in one round trip. */
async function checkNode(node: Redis, timeoutMs: number): Promise<NodeReport> {
  const name = nodeName(node);
  try {
    const replies = await withTimeout(
      node.pipeline().ping().config("GET", "maxmemory-policy").info("memory").info("stats").exec(),
      timeoutMs,
      `Redis ${name}`,
    );
    const [ping, config, info, stats] = replies ?? [];
    if (!ping || ping[0] !== null || ping[1] !== "PONG") {
      return {
        name,
        error: `Redis ${name} did not answer PING (${String(ping?.[0] ?? "no reply")})`,
        policy: "unknown",
      };
    }
    // A managed Redis may disable or rename CONFIG; INFO still says the policy there.
    const memory = info && info[0] === null ? info[1] : undefined;
    const fromConfig = config && config[0] === null ? parsePolicy(config[1]) : "unknown";
    const policy =
      fromConfig !== "unknown" ? fromConfig : (infoField(memory, "maxmemory_policy") ?? "unknown");
    const usedMemoryBytes = infoNumber(memory, "used_memory");
    const maxmemoryBytes = infoNumber(memory, "maxmemory");
    const evictedKeys = stats && stats[0] === null ? infoNumber(stats[1], "evicted_keys") : undefined;
    return {
      name,
      policy,
      usedMemoryBytes,
      ...(maxmemoryBytes === undefined ? {} : { maxmemoryBytes }),
      ...(evictedKeys === undefined ? {} : { evictedKeys }),
    };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { name, error: `Redis ${name} is unreachable: ${message}`, policy: "unknown" };
  }
}

/**
 * What /readyz of both services reports about Redis: every node answers, none may evict keys (a
 * policy that CONFIG and INFO both hide counts as evicting), and none has evicted any.
 * Under memory pressure an evicting `maxmemory-policy` (anything but `noeviction`) drops keys the
 * store needs (`volatile-*` ones those with an expiry): an evicted dedupe table counts recordings twice, an evicted combination table or
 * block corrupts the numbers, silently. With `noeviction` a full Redis refuses writes instead, which
 * the worker retries and alerts on. Redis Cluster: every master is checked.
 */
export async function redisHealth(
  redis: RedisClient,
  options: RedisHealthOptions = {},
): Promise<RedisHealth> {
  const timeoutMs = options.timeoutMs ?? 1000;
  const nodes = nodesOf(redis);
  if (nodes.length === 0) {
    return {
      ok: false,
      reasons: ["no Redis Cluster master is known (not connected)"],
      usedMemoryBytes: undefined,
      memoryFillRatio: undefined,
      maxmemoryPolicies: [],
    };
  }
  const reports = await Promise.all(nodes.map((node) => checkNode(node, timeoutMs)));
  const reasons: string[] = [];
  for (const report of reports) {
    if (report.error !== undefined) {
      reasons.push(report.error);
      continue;
    }
    if (report.policy !== REQUIRED_POLICY) {
      reasons.push(
        `Redis ${report.name} has maxmemory-policy ${report.policy === "unknown" ? "that neither CONFIG nor INFO tells" : report.policy}; ` +
          `it must be ${REQUIRED_POLICY}: an evicted dedupe table would count recordings twice and an ` +
          "evicted combination table or block would corrupt the numbers",
      );
    }
    // Whatever the policy says now, keys evicted before (a policy changed since) may be the store's.
    if ((report.evictedKeys ?? 0) > 0) {
      reasons.push(
        `Redis ${report.name} has evicted ${report.evictedKeys} keys since it started: the store may ` +
          "have lost sums or dedupe entries; rebuild (npm run rebuild) once the policy is noeviction",
      );
    }
  }
  const measured = reports.flatMap((r) => (r.usedMemoryBytes === undefined ? [] : [r.usedMemoryBytes]));
  const fills = reports.flatMap(({ usedMemoryBytes: used, maxmemoryBytes: max }) =>
    used === undefined || max === undefined || max === 0 ? [] : [used / max],
  );
  return {
    ok: reasons.length === 0,
    reasons,
    usedMemoryBytes: measured.length === 0 ? undefined : measured.reduce((a, b) => a + b, 0),
    memoryFillRatio: fills.length === 0 ? undefined : Math.max(...fills),
    maxmemoryPolicies: reports.map((r) => r.policy),
  };
}
