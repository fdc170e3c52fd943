import { Cluster, type Redis } from "ioredis";
import type { RedisClient } from "./redisClient";

export interface RedisHealth {
  /** False when Redis does not answer or is configured so that it could lose data. */
  ok: boolean;
  /** Why it is not ok, one sentence each, for /readyz and the logs. */
  reasons: string[];
  /** `used_memory` summed over the answering nodes (every master of a cluster); undefined if none answered. */
  usedMemoryBytes: number | undefined;
  /** Each node's `maxmemory-policy`; "unknown" where `CONFIG` is disabled or renamed. */
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

function parseUsedMemory(info: unknown): number | undefined {
  const match = typeof info === "string" ? /^used_memory:(\d+)\r?$/m.exec(info) : null;
  return match?.[1] === undefined ? undefined : Number(match[1]);
}

/** PING, `CONFIG GET maxmemory-policy` and `INFO memory` of one node, in one round trip. */
async function checkNode(node: Redis, timeoutMs: number): Promise<NodeReport> {
  const name = nodeName(node);
  try {
    const replies = await withTimeout(
      node.pipeline().ping().config("GET", "maxmemory-policy").info("memory").exec(),
      timeoutMs,
      `Redis ${name}`,
    );
    const [ping, config, info] = replies ?? [];
    if (!ping || ping[0] !== null || ping[1] !== "PONG") {
      return {
        name,
        error: `Redis ${name} did not answer PING (${String(ping?.[0] ?? "no reply")})`,
        policy: "unknown",
      };
    }
    // A managed Redis may disable or rename CONFIG: then the policy is unknown, not a failure.
    const policy = config && config[0] === null ? parsePolicy(config[1]) : "unknown";
    const usedMemoryBytes = info && info[0] === null ? parseUsedMemory(info[1]) : undefined;
    return { name, policy, usedMemoryBytes };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    return { name, error: `Redis ${name} is unreachable: ${message}`, policy: "unknown" };
  }
}

/**
 * What /readyz of both services reports about Redis: every node answers, and none may evict keys.
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
      maxmemoryPolicies: [],
    };
  }
  const reports = await Promise.all(nodes.map((node) => checkNode(node, timeoutMs)));
  const reasons: string[] = [];
  for (const report of reports) {
    if (report.error !== undefined) reasons.push(report.error);
    else if (report.policy !== "unknown" && report.policy !== REQUIRED_POLICY) {
      reasons.push(
        `Redis ${report.name} has maxmemory-policy ${report.policy}; it must be ${REQUIRED_POLICY}: ` +
          "an evicted dedupe table would count recordings twice and an evicted combination table or " +
          "block would corrupt the numbers",
      );
    }
  }
  const measured = reports.flatMap((r) => (r.usedMemoryBytes === undefined ? [] : [r.usedMemoryBytes]));
  return {
    ok: reasons.length === 0,
    reasons,
    usedMemoryBytes: measured.length === 0 ? undefined : measured.reduce((a, b) => a + b, 0),
    maxmemoryPolicies: reports.map((r) => r.policy),
  };
}
