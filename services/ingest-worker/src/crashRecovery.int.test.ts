import { createRecordingProducer } from "@vu/events";
import { waitFor } from "@vu/infra";
import { createRedisClient } from "@vu/store";
import { isProcessAlive, recordingEvent, redisUrl } from "@vu/testkit";
import { createOffsetProbe } from "@vu/testkit/caughtUp";
import { isolatedTopics, testKafka } from "@vu/testkit/kafka";
import { compareWithStore, expectedBlocks, keyspaceOf } from "@vu/testkit/store";
import { spawnWorker, stopProcess, workerProcessEnv } from "@vu/testkit/worker";
import { afterAll, expect, it } from "vitest";

const redis = createRedisClient(redisUrl());
afterAll(() => redis.quit());

it("loses nothing and counts nothing twice when the worker is SIGKILLed mid-stream, repeatedly", async () => {
  const ctx = await isolatedTopics("worker", { partitions: 3 });
  // Rebalances after each kill are expected; only a crash of the worker itself is news.
  const env = workerProcessEnv(ctx, { LOG_LEVEL: "fatal" });
  const kafka = testKafka();
  const producer = createRecordingProducer({ kafka, topic: ctx.topic });
  await producer.connect();
  const offsets = await createOffsetProbe(kafka, ctx.topic, ctx.groupId);
  const orgs = ["acme", "globex", "initech"];
  const events = Array.from({ length: 12_000 }, (_, i) =>
    recordingEvent(`rec-${i}`, new Date(Date.now() - ((i * 7919) % 1_000_000) * 60_000).toISOString(), {
      organization_id: orgs[i % 3] ?? "acme",
      word_count: i % 1000,
      duration_ms: (i % 600) * 1000,
    }),
  );

  const killed: number[] = [];
  let child = spawnWorker(env);
  // Messages the group had committed when the last worker died: nothing commits until the next one.
  let committedAtKill = 0;
  const chunk = 500;
  try {
    for (let start = 0, n = 0; start < events.length; start += chunk, n++) {
      await producer.send(events.slice(start, start + chunk));
      if (n % 6 === 5) {
        // Let it get into the stream: it has committed messages of its own, past where the last
        // one died (by an amount that varies from kill to kill, well below the 3,000 produced
        // since), then kill it without any chance to commit or clean up.
        await offsets.progressPast(committedAtKill + ((n * 137) % 700), 120_000);
        child.kill("SIGKILL");
        await new Promise((resolve) => child.once("exit", resolve));
        if (child.pid !== undefined) killed.push(child.pid);
        committedAtKill = (await offsets.progress()).committed;
        child = spawnWorker(env);
      }
    }
  } finally {
    await offsets.close();
  }
  await producer.disconnect();

  // The killed workers must really be gone: a survivor would keep counting and hide lost events.
  expect(killed.every((pid) => !isProcessAlive(pid))).toBe(true);
  try {
    for (const org of orgs) {
      const expected = expectedBlocks(events, org);
      await waitFor(async () => (await compareWithStore(redis, keyspaceOf(ctx), org, expected)) === null, {
        timeoutMs: 120_000,
        message: `rollups of ${org} equal the events after crashes`,
      }).catch(async (error: unknown) => {
        throw new Error(`${await compareWithStore(redis, keyspaceOf(ctx), org, expected)}`, { cause: error });
      });
      expect(await compareWithStore(redis, keyspaceOf(ctx), org, expected)).toBeNull();
    }
  } finally {
    await stopProcess(child, "SIGTERM");
  }
}, 300_000);
