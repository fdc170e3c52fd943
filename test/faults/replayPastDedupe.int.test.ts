import { redisTargets, waitFor } from "@vu/infra";
import { createKeyspace, unlinkKeys } from "@vu/store";
import { counterTotal } from "@vu/testkit";
import { waitUntilCaughtUp, waitUntilViewCaughtUp } from "@vu/testkit/caughtUp";
import { isolatedTopics, testKafka } from "@vu/testkit/kafka";
import { redisForTest } from "@vu/testkit/redis";
import { startInProcessWorker } from "@vu/testkit/worker";
import { describe, expect, it, onTestFinished } from "vitest";
import { faultShapes, faultTimeout } from "../support/faultShapes";
import { produceWorkload } from "../support/produce";
import { expectExactAfterFault } from "../support/scenario";

// Fault: replays longer than the dedupe window. The recording-id tables only remember a window
// (7 days by default); the offsets kept with the sums remember for good. First the consumer group
// is reset to the earliest offset (an operator's `--reset-offsets --to-earliest`), then the view's
// checkpoints are lost too, so the worker reads the whole topic again; both after the dedupe tables
// have expired (deleted here). Nothing may be counted twice.
const shapes = faultShapes("replay-past-dedupe", (config) => config.size.faultEvents);

describe.each(redisTargets())("on $name", ({ start: startRedis }) => {
  it.each(shapes)(
    "counts nothing twice when the group is reset to the earliest offset or the checkpoints are lost, after the dedupe window ($shape)",
    async ({ prepared }) => {
      const { redis, url: redisUrl } = await redisForTest({ start: startRedis });
      const kafka = testKafka();
      const names = await isolatedTopics("replay");
      const keyspace = createKeyspace({ prefix: names.prefix });
      await produceWorkload(kafka, names.topic, prepared.workload.messages);
      const start = () => startInProcessWorker({ kafka, redis, names, nowMs: prepared.workload.anchorMs });
      const first = await start();
      await waitUntilCaughtUp(kafka, names.topic, names.groupId, 120_000);
      await waitUntilViewCaughtUp(kafka, names.topic, redis, names.prefix, 60_000);
      await first.stop();
      const forgetDedupe = () => unlinkKeys(redis, `${names.prefix}:*:seen:*`);
      expect(await forgetDedupe()).toBeGreaterThan(0);

      const admin = kafka.admin();
      await admin.connect();
      await admin.resetOffsets({ groupId: names.groupId, topic: names.topic, earliest: true });
      await admin.disconnect();
      const second = await start();
      onTestFinished(() => second.stop());
      await waitUntilCaughtUp(kafka, names.topic, names.groupId, 120_000);
      expect(await counterTotal(second.metrics.applied), "nothing applied again after the group reset").toBe(
        0,
      );

      // The checkpoints (and the epoch) gone, the rollups kept: the worker replays the whole topic.
      await forgetDedupe();
      await redis.del(keyspace.log(1));
      await waitUntilViewCaughtUp(kafka, names.topic, redis, names.prefix, 120_000);
      // The counter moves after the store does: waited for, not read at once.
      let replayed = 0;
      await waitFor(
        async () => {
          replayed = await counterTotal(second.metrics.replayed);
          return replayed > prepared.counted / 2;
        },
        { timeoutMs: 30_000, message: `more than ${prepared.counted / 2} messages replayed` },
      ).catch((error: unknown) => {
        throw new Error(`${(error as Error).message}: ${replayed} replayed`, { cause: error });
      });
      console.info(`[replay-past-dedupe] replayed ${replayed} messages`);
      expect(await counterTotal(second.metrics.applied)).toBe(0);

      await expectExactAfterFault(prepared, {
        redisUrl,
        prefix: names.prefix,
        workerClock: "anchor",
      });
    },
    faultTimeout(shapes, 300_000),
  );
});
