import { sleep, startRedisServer, waitFor } from "@vu/infra";
import { createRedisClient } from "@vu/store";
import { counterTotal } from "@vu/testkit";
import { waitUntilViewCaughtUp } from "@vu/testkit/caughtUp";
import { isolatedTopics, testKafka } from "@vu/testkit/kafka";
import { startInProcessWorker } from "@vu/testkit/worker";
import { expect, it, onTestFinished } from "vitest";
import { faultShapes, faultTimeout } from "../support/faultShapes";
import { produceWorkload } from "../support/produce";
import { expectExactAfterFault } from "../support/scenario";

// Fault: Redis refuses writes for 20 seconds with MISCONF (its last snapshot failed, and it is
// configured to stop writes then), as it would with a full disk. That is the server's state, not
// any recording's fault: the worker waits and retries, says so in readiness, and dead-letters
// nothing; afterwards every recording is counted once.
const shapes = faultShapes("redis-refuses-writes", (config) => config.size.faultEvents);

it.each(shapes)(
  "waits out 20 seconds of MISCONF without dead-lettering anything, and counts exactly afterwards ($shape)",
  async ({ prepared }) => {
    const server = await startRedisServer({
      appendonly: false,
      extraArgs: ["--save", "", "--enable-protected-configs", "yes"],
    });
    onTestFinished(() => server.dispose());
    const redis = createRedisClient(server.url);
    onTestFinished(async () => {
      await redis.quit();
    });
    const kafka = testKafka();
    const names = await isolatedTopics("misconf");
    const { messages, anchorMs } = prepared.workload;
    const half = Math.floor(messages.length / 2);

    await produceWorkload(kafka, names.topic, messages.slice(0, half));
    const worker = await startInProcessWorker({ kafka, redisUrl: server.url, names, nowMs: anchorMs });
    onTestFinished(() => worker.stop());
    await waitUntilViewCaughtUp(kafka, names.topic, redis, names.prefix, 120_000);

    // A snapshot that cannot be written (into /proc), with a save point set: Redis refuses writes.
    await redis.config("SET", "save", "3600 1");
    await redis.config("SET", "dir", "/proc");
    await redis.bgsave();
    await waitFor(async () => (await redis.info("persistence")).includes("rdb_last_bgsave_status:err"), {
      timeoutMs: 10_000,
      message: "the failed snapshot",
    });
    await produceWorkload(kafka, names.topic, messages.slice(half));
    await waitFor(async () => (await counterTotal(worker.metrics.writeRefusals)) > 0, {
      timeoutMs: 30_000,
      message: "the worker to meet MISCONF",
    });
    const readiness = await worker.worker().ready();
    expect(readiness.ok).toBe(false);
    expect(readiness.reasons.join("; ")).toMatch(/MISCONF/);
    await sleep(20_000);

    await redis.config("SET", "dir", server.dataDir);
    await redis.bgsave();
    await waitFor(async () => (await redis.info("persistence")).includes("rdb_last_bgsave_status:ok"), {
      timeoutMs: 10_000,
      message: "a snapshot that worked",
    });
    await redis.config("SET", "save", "");
    await waitUntilViewCaughtUp(kafka, names.topic, redis, names.prefix, 120_000);

    const reasons = (await worker.metrics.deadLettered.get()).values.map((v) => String(v.labels.reason));
    console.info(
      `[redis-refuses-writes] ${await counterTotal(worker.metrics.writeRefusals)} refusals; dead letters by reason ${JSON.stringify(reasons)}`,
    );
    expect(reasons.filter((r) => r.startsWith("apply_failed"))).toEqual([]);
    await expectExactAfterFault(prepared, {
      redisUrl: server.url,
      prefix: names.prefix,
      workerClock: "anchor",
    });
  },
  faultTimeout(shapes, 300_000),
);
