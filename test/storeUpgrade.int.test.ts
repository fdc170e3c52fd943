import { redisTargets, sleep, waitFor } from "@vu/infra";
import {
  createKeyspace,
  createLogPosition,
  type LogPosition,
  type RedisClient,
  STORE_VERSION,
  scanKeys,
  unlinkKeys,
} from "@vu/store";
import { waitUntilViewCaughtUp } from "@vu/testkit/caughtUp";
import { isolatedTopics, testKafka } from "@vu/testkit/kafka";
import { redisForTest } from "@vu/testkit/redis";
import { type InProcessWorker, startInProcessWorker } from "@vu/testkit/worker";
import { describe, expect, it, onTestFinished } from "vitest";
import { faultTimeout } from "./support/faultShapes";
import { produceWorkload } from "./support/produce";
import { expectExactAfterFault, prepareWorkload } from "./support/scenario";

// The store upgrade as the README tells an operator to do it. Without a gap in answers: the new
// version's worker starts beside the old one, in a consumer group of its own, and fills the new
// keys from the log while the old worker and API keep serving the old keys; once it has caught up,
// the API is rolled to the new version, and the old keys are deleted. Or in place: the new worker
// takes the old one's group, whose offsets are at the end of the topic, and replays all the same
// (the API answers 503 meanwhile). The old version is stood in for by its keys and by its group's
// offsets at the end of the topic (this code cannot run an older version).
const prepared = prepareWorkload("store-upgrade", (config) => config.size.faultEvents, {
  organizations: (config) => config.size.manyOrganizations.organizations,
});
const OLD_VERSION = "v7";

async function keysMatching(redis: RedisClient, pattern: string) {
  const keys: string[] = [];
  await scanKeys(redis, pattern, (page) => {
    keys.push(...page);
  });
  return keys.sort();
}

/**
 * Samples the worker's readiness from its start until `stop` is called: how often it was not
 * ready, and how often it said ready while the view was not live yet (the view's state is read
 * after the answer and only moves on to live, so such a sample is never a race). `seen` is live.
 */
function sampleReadiness(worker: InProcessWorker, log: LogPosition) {
  const seen = { notReady: 0, readyBeforeLive: 0 };
  let stopped = false;
  const sampling = (async () => {
    while (!stopped) {
      const { ok } = await worker.worker().ready();
      const { state } = await log.read(1);
      if (!ok) seen.notReady++;
      else if (state !== "live") seen.readyBeforeLive++;
      await sleep(5);
    }
  })();
  return {
    seen,
    async stop() {
      stopped = true;
      await sampling;
      return seen;
    },
  };
}

/** Sets the group's committed offsets to the end of the topic, as the old worker left them. */
async function commitAtEnd(kafka: ReturnType<typeof testKafka>, topic: string, groupId: string) {
  const admin = kafka.admin();
  await admin.connect();
  try {
    const ends = await admin.fetchTopicOffsets(topic);
    await admin.setOffsets({
      groupId,
      topic,
      partitions: ends.map(({ partition, high }) => ({ partition, offset: high })),
    });
  } finally {
    await admin.disconnect();
  }
}

const procedures = [
  { procedure: "beside the old worker", group: `-${STORE_VERSION}`, epochCause: "first" },
  { procedure: "in place of the old worker", group: "", epochCause: "lost" },
];

describe.each(redisTargets())("on $name", ({ start: startRedis }) => {
  it.each(procedures)(
    "fills the new version from the log $procedure; the old keys stay untouched until they are deleted",
    async ({ group, epochCause }) => {
      expect(STORE_VERSION).not.toBe(OLD_VERSION);
      const { redis, url: redisUrl } = await redisForTest({ start: startRedis });
      const kafka = testKafka();
      const names = await isolatedTopics("upgrade");
      await produceWorkload(kafka, names.topic, prepared.workload.messages);

      // What the old version left: its rollups, the tokens (under their own key version, kept),
      // and its group at the end.
      const oldKeys = [
        `${names.prefix}:${OLD_VERSION}:g1:combos:org-1`,
        `${names.prefix}:${OLD_VERSION}:g1:log`,
      ].sort();
      for (const key of oldKeys) await redis.hset(key, "field", "old value");
      const tokenKey = `${names.prefix}:v3:token:example`;
      await redis.set(tokenKey, "a token record");
      await commitAtEnd(kafka, names.topic, names.groupId);

      // The new worker (README: Upgrading the store). Until its view is live it is not ready: an
      // operator rolls the API on its readiness. It starts with its consumer paused, so its view
      // cannot be live until the sampler has seen it not ready; then it fills the new version.
      const upgraded = { ...names, groupId: `${names.groupId}${group}` };
      const worker = await startInProcessWorker({
        kafka,
        redis,
        names: upgraded,
        nowMs: prepared.workload.anchorMs,
        pausedAtStart: true,
      });
      onTestFinished(() => worker.stop());
      const readiness = sampleReadiness(
        worker,
        createLogPosition({ redis, keyspace: createKeyspace(names) }),
      );
      await waitFor(() => readiness.seen.notReady > 0, {
        timeoutMs: 30_000,
        message: "the new worker, paused before its view is live, to say it is not ready",
      });
      worker.resumeConsumer();
      await waitUntilViewCaughtUp(kafka, names.topic, redis, names.prefix, 120_000);
      await waitFor(async () => (await worker.worker().ready()).ok, {
        timeoutMs: 30_000,
        message: "the new worker to say it is ready",
      });
      const seen = await readiness.stop();
      expect(seen.readyBeforeLive, "ready while the view was not live").toBe(0);
      expect(seen.notReady).toBeGreaterThan(0);
      const opened = (await worker.metrics.epochsOpened.get()).values.map((v) => [v.labels.cause, v.value]);
      expect(opened).toEqual([[epochCause, 1]]);
      expect(await keysMatching(redis, `${names.prefix}:${OLD_VERSION}:*`)).toEqual(oldKeys);

      // The API of the new version answers exactly; then the old rollups go, the tokens stay.
      const verify = () =>
        expectExactAfterFault(prepared, {
          redisUrl,
          prefix: names.prefix,
          workerClock: "anchor",
        });
      await verify();
      expect(await unlinkKeys(redis, `${names.prefix}:${OLD_VERSION}:*`)).toBe(oldKeys.length);
      expect(await redis.get(tokenKey)).toBe("a token record");
      await verify();
    },
    faultTimeout([{ shape: "many", prepared }], 300_000),
  );
});
