import type { ChildProcess } from "node:child_process";
import { createRecordingProducer } from "@vu/events";
import { sleep, spawnService, waitFor } from "@vu/infra";
import { createRedisClient } from "@vu/store";
import { afterAll, expect, it } from "vitest";
import {
  brokers,
  compareWithStore,
  event,
  expectedBlocks,
  isolatedIngest,
  redisUrl,
  testKafka,
} from "./testing/ingestHarness";

const redis = createRedisClient(redisUrl());
afterAll(() => redis.quit());

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function spawnWorker(env: Record<string, string>): ChildProcess {
  return spawnService("services/ingest-worker/src/main.ts", { env });
}

it("loses nothing and counts nothing twice when the worker is SIGKILLed mid-stream, repeatedly", async () => {
  const ctx = await isolatedIngest(3);
  const env = {
    KAFKA_BROKERS: brokers().join(","),
    REDIS_URL: redisUrl(),
    RECORDINGS_TOPIC: ctx.topic,
    DLQ_TOPIC: ctx.dlqTopic,
    KAFKA_GROUP_ID: ctx.groupId,
    REDIS_PREFIX: ctx.prefix,
    METRICS_PORT: "0",
    KAFKA_SESSION_TIMEOUT_MS: "6000",
    KAFKA_HEARTBEAT_INTERVAL_MS: "500",
    // Rebalances after each kill are expected; only a crash of the worker itself is news.
    LOG_LEVEL: "fatal",
  };
  const producer = createRecordingProducer({ kafka: testKafka(), topic: ctx.topic });
  await producer.connect();
  const orgs = ["acme", "globex", "initech"];
  const events = Array.from({ length: 12_000 }, (_, i) =>
    event(
      orgs[i % 3] ?? "acme",
      `rec-${i}`,
      new Date(Date.now() - ((i * 7919) % 1_000_000) * 60_000).toISOString(),
      {
        word_count: i % 1000,
        duration_ms: (i % 600) * 1000,
      },
    ),
  );

  const killed: number[] = [];
  let child = spawnWorker(env);
  const chunk = 500;
  for (let start = 0, n = 0; start < events.length; start += chunk, n++) {
    await producer.send(events.slice(start, start + chunk));
    if (n % 6 === 5) {
      // Let it get into the stream, then kill it without any chance to commit or clean up.
      await sleep(300 + ((n * 137) % 700));
      child.kill("SIGKILL");
      await new Promise((resolve) => child.once("exit", resolve));
      if (child.pid !== undefined) killed.push(child.pid);
      child = spawnWorker(env);
    }
  }
  await producer.disconnect();

  // The killed workers must really be gone: a survivor would keep counting and hide lost events.
  expect(killed.every((pid) => !isAlive(pid))).toBe(true);
  try {
    for (const org of orgs) {
      const expected = expectedBlocks(events, org);
      await waitFor(async () => (await compareWithStore(redis, ctx.keyspace, org, expected)) === null, {
        timeoutMs: 120_000,
        message: `rollups of ${org} equal the events after crashes`,
      }).catch(async (error: unknown) => {
        throw new Error(`${await compareWithStore(redis, ctx.keyspace, org, expected)}`, { cause: error });
      });
      expect(await compareWithStore(redis, ctx.keyspace, org, expected)).toBeNull();
    }
  } finally {
    child.kill("SIGTERM");
    await new Promise((resolve) => child.once("exit", resolve));
  }
}, 300_000);
