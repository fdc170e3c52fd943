import { startRedisServer, waitFor } from "@vu/infra";
import { counterTotal } from "@vu/testkit";
import { createOffsetProbe, waitUntilCaughtUp } from "@vu/testkit/caughtUp";
import { isolatedTopics, testKafka } from "@vu/testkit/kafka";
import { startInProcessWorker } from "@vu/testkit/worker";
import { expect, it, onTestFinished } from "vitest";
import { faultShapes, faultTimeout } from "../support/faultShapes";
import { produceWorkload } from "../support/produce";
import { expectExactAfterFault } from "../support/scenario";

// Fault: the worker's Redis goes away twice while it ingests: once stopped cleanly (SIGTERM, which
// flushes the append-only file) and started again, once killed (SIGKILL) and started again. The
// server runs with `appendfsync always`: Redis then fsyncs the AOF before it replies, so a write the
// worker saw acknowledged survives even the SIGKILL (with the default `everysec`, the last second of
// acknowledged writes could be lost to a crash, and the test would blame the worker for it). The
// worker's retries must carry it through both outages; the API reads the same Redis afterwards.
const shapes = faultShapes("redis-restart", (config) => config.size.faultEvents);

it.each(shapes)(
  "loses nothing and counts nothing twice when Redis (AOF) restarts and crashes during ingest ($shape)",
  async ({ prepared }) => {
    const redis = await startRedisServer({ appendonly: true, appendfsync: "always" });
    onTestFinished(() => redis.dispose());
    const names = await isolatedTopics("redis");
    const kafka = testKafka();
    const { messages } = prepared.workload;
    const thirds = [0, 1, 2].map((i) =>
      messages.slice((i * messages.length) / 3, ((i + 1) * messages.length) / 3),
    );

    await produceWorkload(kafka, names.topic, thirds[0] ?? []);
    const running = await startInProcessWorker({
      kafka,
      redisUrl: redis.url,
      names,
      nowMs: prepared.workload.anchorMs,
    });
    onTestFinished(() => running.stop());
    const probe = await createOffsetProbe(kafka, names.topic, names.groupId);
    onTestFinished(() => probe.close());

    // Each outage starts as soon as the worker has committed a batch of the newest part, and the
    // next part is produced while Redis is down: the worker always has work in hand that it must
    // retry (a part can be applied in full before the outage begins; then only new work meets it).
    // "A batch of the newest part" is a commit past every message produced before it: waiting for
    // more than was committed a moment ago would wait forever once the part is wholly applied.
    // Redis comes back once the worker has met the outage: its retry counter has moved.
    const lagAtOutage: number[] = [];
    const retriesInOutage: number[] = [];
    let producedBefore = 0;
    for (const [i, force] of [false, true].entries()) {
      await probe.progressPast(producedBefore);
      lagAtOutage.push((await probe.progress()).lag);
      const retriesBefore = await counterTotal(running.metrics.retries);
      if (force) await redis.kill();
      else await redis.stop();
      producedBefore += thirds[i]?.length ?? 0;
      await produceWorkload(kafka, names.topic, thirds[i + 1] ?? []);
      const retried = await waitFor(
        async () => Math.max(0, (await counterTotal(running.metrics.retries)) - retriesBefore),
        { timeoutMs: 60_000, message: `the worker to retry while Redis is down (outage ${i + 1})` },
      );
      retriesInOutage.push(retried);
      await redis.start();
    }

    await waitUntilCaughtUp(kafka, names.topic, names.groupId, 180_000);
    const retries = await counterTotal(running.metrics.retries);
    console.info(
      `[redis-restart] outages with ${lagAtOutage.join(", ")} messages uncommitted; ${retries} retries (${retriesInOutage.join(", ")} seen before Redis came back each time)`,
    );
    for (const [i, retried] of retriesInOutage.entries())
      expect(retried, `the worker met outage ${i + 1} (and retried through it)`).toBeGreaterThan(0);
    expect(running.crashes).toEqual([]);

    await expectExactAfterFault(prepared, {
      redisUrl: redis.url,
      prefix: names.prefix,
      workerClock: "anchor",
    });
  },
  faultTimeout(shapes, 300_000),
);
