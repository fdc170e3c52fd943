import { createRecordingProducer } from "@vu/events";
import { redisTargets, waitFor } from "@vu/infra";
import { createLogPosition } from "@vu/store";
import { counterTotal, recordingEvent } from "@vu/testkit";
import { isolatedTopics, testKafka } from "@vu/testkit/kafka";
import { useRedisTarget } from "@vu/testkit/redis";
import { keyspaceOf } from "@vu/testkit/store";
import { type InProcessWorker, startInProcessWorker } from "@vu/testkit/worker";
import { describe, expect, it, onTestFinished } from "vitest";

const kafka = testKafka();
const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();
/** Recordings a worker's calls counted, or found applied already. */
const handled = async (w: InProcessWorker) =>
  (await counterTotal(w.metrics.applied)) + (await counterTotal(w.metrics.replayed));

// Two writers of one partition in one generation: what a rebuild still running beside the live
// worker is, and a consumer that outlived its group session. The later one claims the partition;
// the earlier one is refused and stops writing it, and the view is never replayed for it.
describe.each(redisTargets())("on $name", (target) => {
  const redis = useRedisTarget(target);

  it("lets the later writer of a partition go on, stops the earlier one, and counts every recording once", async () => {
    const names = await isolatedTopics("fence", { partitions: 1 });
    const producer = createRecordingProducer({ kafka, topic: names.topic });
    await producer.connect();
    onTestFinished(() => producer.disconnect());
    const send = (id: string) => producer.send([recordingEvent(id, hoursAgo(1))]);

    const earlier = await startInProcessWorker({ kafka, redis: redis(), names });
    onTestFinished(() => earlier.stop());
    await send("r1");
    await waitFor(async () => (await counterTotal(earlier.metrics.applied)) === 1, { timeoutMs: 30_000 });

    // Another group, so both read the partition; it resumes from the view's checkpoint (past r1)
    // and claims the partition, which a shard learns at its first call there.
    const later = await startInProcessWorker({
      kafka,
      redis: redis(),
      names: { ...names, groupId: `${names.groupId}-later` },
    });
    onTestFinished(() => later.stop());
    const cluster = target.name.includes("Cluster");
    const counted = async () =>
      (await counterTotal(earlier.metrics.applied)) + (await counterTotal(later.metrics.applied));

    // Both fetch each recording, and race: the later writer may find it applied, or skip it when
    // the earlier one moved the checkpoint first. One after another until a call of the later
    // writer has reached Redis (on a cluster, from then on the shard refuses the earlier writer);
    // then one more, which the earlier writer meets fenced off. On a single Redis the checkpoint,
    // checked in the same script, sends the slower writer back to where the view stands instead.
    let sent = 1;
    const next = async () => {
      await send(`r${++sent}`);
      await waitFor(async () => (await counted()) === sent, {
        timeoutMs: 30_000,
        message: `r${sent} counted`,
      });
    };
    while (cluster && (await handled(later)) === 0 && sent < 20) await next();
    if (cluster) expect(await handled(later)).toBeGreaterThan(0);
    await next();
    if (cluster) {
      await waitFor(async () => (await counterTotal(earlier.metrics.partitionsFenced)) === 1, {
        timeoutMs: 30_000,
        message: "the earlier writer fenced off",
      });
    }

    // Neither saw lost writes, the view stayed live, and every recording counted once.
    const log = await createLogPosition({ redis: redis(), keyspace: keyspaceOf(names) }).read(1);
    expect(log.state).toBe("live");
    for (const w of [earlier, later]) {
      const causes = (await w.metrics.epochsOpened.get()).values.map((v) => v.labels.cause);
      expect(causes.filter((cause) => cause !== "first")).toEqual([]);
    }
    expect(await counted()).toBe(sent);
  });
});
