import { redisTargets } from "@vu/infra";
import { waitUntilViewCaughtUp } from "@vu/testkit/caughtUp";
import { isolatedTopics, testKafka } from "@vu/testkit/kafka";
import { redisForTest } from "@vu/testkit/redis";
import { startInProcessWorker } from "@vu/testkit/worker";
import { describe, it, onTestFinished } from "vitest";
import { faultShapes, faultTimeout } from "../support/faultShapes";
import { produceWorkload } from "../support/produce";
import { expectExactAfterFault } from "../support/scenario";

// Fault: two workers whose clocks differ by 2 hours take turns on the same partitions, with a
// dedupe window of 1 hour. Were the dedupe window chosen by each worker's clock, the second worker
// would look in other windows than the first wrote, and count the repeats of the first half's
// recordings again; the window follows Redis' clock, so both look in the same sets. The slower clock
// is the first worker's: it keeps every block the API (at the anchor) reads, and accepts the same
// events (the workload's far-future ones are 30 hours ahead or more).
const shapes = faultShapes("skewed-clocks", (config) => config.size.faultEvents);

describe.each(redisTargets())("on $name", ({ start: startRedis }) => {
  it.each(shapes)(
    "counts every recording once when workers with clocks 2 hours apart share the work ($shape)",
    async ({ prepared }) => {
      const { redis, url: redisUrl } = await redisForTest({ start: startRedis });
      const kafka = testKafka();
      const names = await isolatedTopics("clocks");
      const { messages, anchorMs } = prepared.workload;
      const half = Math.floor(messages.length / 2);
      const env = { DEDUPE_WINDOW_HOURS: "1" };

      await produceWorkload(kafka, names.topic, messages.slice(0, half));
      const behind = await startInProcessWorker({
        kafka,
        redis,
        names,
        env,
        nowMs: anchorMs - 2 * 3_600_000,
      });
      await waitUntilViewCaughtUp(kafka, names.topic, redis, names.prefix, 120_000);
      await behind.stop();

      await produceWorkload(kafka, names.topic, messages.slice(half));
      const onTime = await startInProcessWorker({ kafka, redis, names, env, nowMs: anchorMs });
      onTestFinished(() => onTime.stop());
      await waitUntilViewCaughtUp(kafka, names.topic, redis, names.prefix, 120_000);

      await expectExactAfterFault(prepared, {
        redisUrl,
        prefix: names.prefix,
        workerClock: "anchor",
      });
    },
    faultTimeout(shapes, 300_000),
  );
});
