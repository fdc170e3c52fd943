import type { ChildProcess } from "node:child_process";
import { spawnService } from "@vu/infra";
import type { IsolatedNames } from "./names";
import { brokers, redisUrl, TEST_TOKENS_SIGNING_KEY } from "./stackEnv";

/**
 * The worker's environment (its env schema, services/ingest-worker/src/env.ts) for one test's
 * topics, group and prefix, with `overrides` on top.
 */
export function workerProcessEnv(
  names: IsolatedNames,
  overrides: Record<string, string> = {},
): Record<string, string> {
  return {
    KAFKA_BROKERS: brokers().join(","),
    REDIS_URL: redisUrl(),
    RECORDINGS_TOPIC: names.topic,
    DLQ_TOPIC: names.dlqTopic,
    KAFKA_GROUP_ID: names.groupId,
    REDIS_PREFIX: names.prefix,
    TOKENS_SIGNING_KEY: TEST_TOKENS_SIGNING_KEY,
    // The suites check percentiles too (docs/contract.md §9), as the in-process workers do.
    PERCENTILE_SKETCHES: "true",
    OPS_PORT: "0",
    // Short session: a killed member's partitions move to its successor within seconds.
    KAFKA_SESSION_TIMEOUT_MS: "6000",
    KAFKA_HEARTBEAT_INTERVAL_MS: "500",
    // Rebalances after each kill are expected; only a crash of the worker itself is news.
    LOG_LEVEL: process.env.VU_WORKER_LOG_LEVEL ?? "error",
    ...overrides,
  };
}

/**
 * The real worker (`services/ingest-worker/src/main.ts`) as one child process, so SIGKILL kills
 * the worker itself (through the `tsx` launcher it would kill only the launcher).
 */
export function spawnWorker(env: Record<string, string>): ChildProcess {
  return spawnService("services/ingest-worker/src/main.ts", { env });
}

/** Sends `signal` and resolves once the process has exited. */
export async function stopProcess(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill(signal);
  await exited;
}
